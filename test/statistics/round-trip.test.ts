import { expect } from 'chai';
import { parseSeriesId } from '../../src/statistics/series-id.ts';
import { recording } from '../connectors/recordings.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json } from '../support/fake-upstream.ts';
import { recorded } from '../life/support.ts';
import { serveData, serveSearches, statisticsHarness, type StatisticsHarness } from './support.ts';

/** Routes for the one series a seriesId names, where its address depends on the id (the others are in serveData). */
function serveSeries(stats: StatisticsHarness, seriesId: string): void {
  const { source, id, dimensions } = parseSeriesId(seriesId);
  if (source === 'fred') {
    const entry = (JSON.parse(recording('fred', 'series-search-oil.json')) as { seriess: Array<{ id: string }> }).seriess.find((series) => series.id === id);
    stats.on('fred', '/series', json({ seriess: [entry] }));
  }
  if (source === 'world-bank') {
    stats.on('world-bank', `/country/${dimensions.country ?? 'WLD'}/indicator/${id}`, recorded('world-bank', 'indicator-data-jpn-usa-gdp-2018-2019.json'));
    stats.on('world-bank', `/indicator/${id}`, recorded('world-bank', 'indicator-metadata.json'));
  }
  if (source === 'bls') stats.on('bls', `/timeseries/data/${id}`, recorded('bls', 'timeseries-post-cpi-1913-1914.json'));
}

const SERIES_COUNT = 20;

describeOnEachEngine('find_series → get_series round trip', (engine) => {
  const stats = statisticsHarness(engine);

  it('every seriesId find_series offers from the recordings is accepted by get_series, which asks its source for that series', async function () {
    this.timeout(120_000); // twenty calls paced by the sources' own rate limits
    const searches: Array<[string, string[]]> = [
      ['oil prices', ['fred']],
      ['poverty headcount in Japan', ['world-bank']],
      ['average hourly earnings', ['bls']],
      ['unemployment in Germany', ['eurostat', 'imf', 'owid']],
    ];
    // OECD and Census search catalogues of which no real recording exists (test/recordings/oecd/README.md): they are left out here.
    const seriesIds: string[] = [];
    for (const [query, sources] of searches) {
      serveSearches(stats);
      const found = await stats.charged('find_series', { query, sources });
      expect(found.answer.status, found.answer.text).to.equal(200);
      seriesIds.push(...found.answer.body.records.map((record: { data: { series_id: string } }) => record.data.series_id));
    }
    expect(new Set(seriesIds.map((id) => id.slice(0, id.indexOf(':'))))).to.deep.equal(new Set(['fred', 'world-bank', 'bls', 'eurostat', 'imf', 'owid']));
    expect(seriesIds).to.have.length(SERIES_COUNT);

    for (const seriesId of seriesIds) {
      serveData(stats);
      serveSeries(stats, seriesId);
      const source = seriesId.slice(0, seriesId.indexOf(':'));
      const before = stats.fake.hits.filter((hit) => hit.path.startsWith(`/${source}/`)).length;
      const got = await stats.charged('get_series', { series_id: seriesId });
      expect(got.answer.status, `${seriesId}: ${got.answer.text}`).to.equal(200);
      const record = got.answer.body.records[0];
      expect(record.id.split('?')[0], seriesId).to.equal(seriesId.split('?')[0]);
      expect(record.data.observation_count, seriesId).to.be.greaterThan(0);
      expect(stats.fake.hits.filter((hit) => hit.path.startsWith(`/${source}/`)).length, seriesId).to.be.greaterThan(before);
    }
  });
});
