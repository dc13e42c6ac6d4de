import { expect } from 'chai';
import { describeOnEachEngine } from '../support/databases.ts';
import { down, expectCharged, expectNotCharged, own } from '../life/support.ts';
import { serveBlsCatalogue, serveData, serveSearches, statisticsHarness, text } from './support.ts';
import { recording } from '../connectors/recordings.ts';
import { STATISTICS_SOURCES } from '../../src/statistics/series-id.ts';

describeOnEachEngine('find_series over the sources’ own catalogues', (engine) => {
  const stats = statisticsHarness(engine);
  const ids = (result: { answer: { body: { records: Array<{ id: string }> } } }) => result.answer.body.records.map((record) => record.id);
  /** Serves a recorded structure answer (`agency/flow/version`) and a recorded data answer for one key; → the two paths. */
  const serveOecdRecordings = (flow: string, structureFile: string, key: string, dataFile: string) => {
    const paths = { structure: `/dataflow/${flow}`, data: `/data/${flow.replaceAll('/', ',')}/${key}` };
    stats.on('oecd', paths.structure, text(recording('oecd', structureFile), 'application/vnd.sdmx.structure+xml; version=2.1; charset=utf-8'));
    stats.on('oecd', paths.data, text(recording('oecd', dataFile), 'application/vnd.sdmx.data+csv; charset=utf-8'));
    return paths;
  };
  /** get_series for one id, charged → its one record. */
  const fetched = async (id: string) => {
    const series = await stats.charged('get_series', { series_id: id });
    expectCharged(series);
    return series.answer.body.records[0];
  };

  it('finds "average hourly earnings of all employees" in the recorded LABSTAT series lists: CES0500000003 first, and get_series fetches it', async () => {
    serveBlsCatalogue(stats);
    const found = await stats.charged('find_series', { query: 'average hourly earnings of all employees', sources: ['bls'], limit: 3 });
    expectCharged(found);
    expect(ids(found)).to.deep.equal(['bls:CES0500000003', 'bls:CES1011330003', 'bls:CES2000000003']);
    expect(found.answer.body.records[0].data).to.deep.equal({
      series_id: 'bls:CES0500000003',
      units: 'Dollars per hour',
      frequency: 'monthly',
      seasonal_adjustment: 'Seasonally Adjusted',
      geography: 'United States',
      country_code: 'USA',
      dataset: 'Current Employment Statistics (CES)',
      start: '2006-03',
      end: '2025-08',
    });
    expect(found.answer.body.records[0].title).to.equal('Average hourly earnings of all employees, total private, seasonally adjusted');
    const asked = stats.hits('bls', '/labstat/ce/ce.series')[0]!;
    expect(asked.headers['user-agent']).to.match(/^research-tools-api\//);

    // No real recording of this series' data answer exists: the answer is hand-made in the API's documented format.
    stats.on('bls', '/timeseries/data/CES0500000003', own('bls', 'hand-made-timeseries-ces0500000003.json'));
    const series = await stats.charged('get_series', { series_id: 'bls:CES0500000003' });
    expectCharged(series);
    expect(series.answer.body.records[0].data.observations).to.deep.equal([
      { period: '2025-06', date: '2025-06-01', value: 36.3 },
      { period: '2025-07', date: '2025-07-01', value: 36.41 },
      { period: '2025-08', date: '2025-08-01', value: 36.53, status: 'preliminary' },
    ]);
  });

  it("get_series fetches Germany's unemployment rate from an OECD dataflow it does not list, reading the key order and labels from the recorded structure answer", async () => {
    const flow = serveOecdRecordings(
      'OECD.SDD.TPS/DSD_LFS@DF_IALFS_INDIC/1.0',
      'structure-v1-lfs-ialfs-indic-referencepartial-excerpt.xml',
      'DEU.UNE_LF.PT_LF_SUB._Z.Y._T.Y_GE15._Z.A',
      'data-v1-lfs-ialfs-indic-deu-unemployment-rate-excerpt.csv',
    );
    const id =
      'oecd:OECD.SDD.TPS,DSD_LFS@DF_IALFS_INDIC,1.0?REF_AREA=DEU&MEASURE=UNE_LF&UNIT_MEASURE=PT_LF_SUB&TRANSFORMATION=_Z&ADJUSTMENT=Y&SEX=_T&AGE=Y_GE15&ACTIVITY=_Z&FREQ=A';
    const record = await fetched(id);
    expect(record.title).to.equal('Unemployment rate');
    const { observations, ...facts } = record.data;
    expect(facts).to.deep.equal({
      series_id: id,
      units: 'Percentage of labour force in the same subgroup',
      frequency: 'annual',
      seasonal_adjustment: 'Calendar and seasonally adjusted',
      geography: 'Germany',
      country_code: 'DEU',
      observation_count: 13,
    });
    // The recorded rows are not in order: sorted here, 2012 to 2024; 2019 is a break in the series (B), 2020 an estimate (E).
    expect(
      observations.map((observation: { period: string; value: number; status?: string }) => [observation.period, observation.value, observation.status]),
    ).to.deep.equal([
      ['2012', 5.38083, undefined],
      ['2013', 5.23217, undefined],
      ['2014', 4.981803, undefined],
      ['2015', 4.62519, undefined],
      ['2016', 4.122944, undefined],
      ['2017', 3.746818, undefined],
      ['2018', 3.384222, undefined],
      ['2019', 3.136789, 'B'],
      ['2020', 3.809084, 'E'],
      ['2021', 3.640397, undefined],
      ['2022', 3.166472, undefined],
      ['2023', 3.068325, undefined],
      ['2024', 3.384949, undefined],
    ]);
    const asked = stats.hits('oecd', flow.structure)[0]!;
    expect([asked.query.get('references'), asked.query.get('detail'), asked.headers.accept]).to.deep.equal([
      'all',
      'referencepartial',
      'application/vnd.sdmx.structure+xml; version=2.1',
    ]);
  });

  it("get_series fetches Germany's long-term interest rates from OECD's financial market dataflow, reading the key order and labels from the recorded structure answer", async () => {
    const flow = serveOecdRecordings(
      'OECD.SDD.STES/DSD_STES@DF_FINMARK/4.0',
      'structure-v1-stes-finmark-referencepartial-excerpt.xml',
      'DEU.A.IRLT.PA._Z._Z._Z._Z.N',
      'data-v1-stes-finmark-irlt-annual-deu-excerpt.csv',
    );
    const id =
      'oecd:OECD.SDD.STES,DSD_STES@DF_FINMARK,4.0?REF_AREA=DEU&FREQ=A&MEASURE=IRLT&UNIT_MEASURE=PA&ACTIVITY=_Z&ADJUSTMENT=_Z&TRANSFORMATION=_Z&TIME_HORIZ=_Z&METHODOLOGY=N';
    const record = await fetched(id);
    expect(record.title).to.equal('Long-term interest rates');
    const { observations, ...facts } = record.data;
    // The partial codelists still label every code of the key: the unit (PA) and the adjustment (_Z) too.
    expect(facts).to.deep.equal({
      series_id: id,
      units: 'Percent per annum',
      frequency: 'annual',
      seasonal_adjustment: 'Not applicable',
      geography: 'Germany',
      country_code: 'DEU',
      observation_count: 5,
    });
    expect(
      observations.map((observation: { period: string; value: number; status?: string }) => [observation.period, observation.value, observation.status]),
    ).to.deep.equal([
      ['2019', -0.2536345, undefined],
      ['2020', -0.511024, undefined],
      ['2021', -0.3738212, undefined],
      ['2022', 1.142583, undefined],
      ['2023', 2.434599, undefined],
    ]);
    expect(stats.hits('oecd', flow.data).length).to.equal(1);
  });

  it('reads the catalogue once: a second search is answered from the held index without asking BLS again', async () => {
    serveBlsCatalogue(stats);
    await stats.charged('find_series', { query: 'all employees total nonfarm', sources: ['bls'] });
    const again = await stats.charged('find_series', { query: 'consumer price index all items', sources: ['bls'], limit: 1 });
    expectCharged(again);
    expect(ids(again)).to.deep.equal(['bls:CUSR0000SA0']);
    expect(['ce', 'cu', 'ln'].map((survey) => stats.hits('bls', `/labstat/${survey}/${survey}.series`).length)).to.deep.equal([1, 1, 1]);
  });

  it('asks "inflation" as "consumer price index" too (synonyms), and matches words by prefix', async () => {
    serveBlsCatalogue(stats);
    const found = await stats.charged('find_series', { query: 'inflation all items less food and energy', sources: ['bls'], limit: 1 });
    expectCharged(found);
    expect(ids(found)).to.deep.equal(['bls:CUSR0000SA0L1E']);
  });

  it('names a source whose catalogue cannot be read as failed: its hand-picked series are never the answer', async () => {
    serveSearches(stats);
    stats.on('bls', '/labstat/ce/ce.series', { status: 403, body: 'Access Denied', contentType: 'text/plain' });
    const result = await stats.charged('find_series', { query: 'unemployment rate', sources: ['bls', 'world-bank'] });
    expectCharged(result, ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id']);
    expect(result.answer.body.failedSources).to.deep.equal([{ source: 'bls', error: 'bls answered HTTP 403: Access Denied' }]);
    expect(ids(result).every((id) => id.startsWith('world-bank:'))).to.equal(true);
  });

  it('is a 502 that costs nothing when every networked source fails (BLS and Census have nothing for Germany and ask nothing; no built-in list answers)', async () => {
    for (const source of STATISTICS_SOURCES) stats.fake.under(`/${source}/`, () => down);
    const result = await stats.charged('find_series', { query: 'unemployment rate Germany' });
    expectNotCharged(result);
    const message: string = result.answer.body.error.message;
    expect(message.startsWith('no source answered: ')).to.equal(true);
    expect(STATISTICS_SOURCES.filter((source) => message.includes(`${source} answered HTTP 503`))).to.deep.equal([
      'fred',
      'world-bank',
      'oecd',
      'eurostat',
      'imf',
      'owid',
    ]);
  });

  it('is a 502 that costs nothing for a United States question too, when BLS, Census and every other networked source fail', async () => {
    for (const source of STATISTICS_SOURCES) stats.fake.under(`/${source}/`, () => down);
    // Census's dataset catalogue sits beside its data folder (data.json beside data/).
    stats.fake.on('/census.json', down);
    const result = await stats.charged('find_series', { query: 'unemployment rate' });
    expectNotCharged(result);
    const message: string = result.answer.body.error.message;
    expect(STATISTICS_SOURCES.filter((source) => message.includes(`${source} answered HTTP 503`))).to.deep.equal([
      'fred',
      'world-bank',
      'bls',
      'eurostat',
      'owid',
      'census',
    ]);
  });

  it('ranks "unemployment rate Germany" over all eight sources: candidates of at least three sources, every seriesId accepted by get_series', async () => {
    serveSearches(stats);
    serveData(stats);
    const result = await stats.charged('find_series', { query: 'unemployment rate Germany', limit: 10 });
    expect(result.answer.status, result.answer.text).to.equal(200);
    const records: Array<{ id: string; source: string }> = result.answer.body.records;
    const sources = [...new Set(records.map((record) => record.source))];
    expect(sources.length).to.be.at.least(3);
    // No real recording of OECD's dataflow list exists, so it is not served: OECD fails; BLS and Census have nothing for Germany.
    expect(result.answer.body.failedSources.map((failure: { source: string }) => failure.source)).to.deep.equal(['oecd']);
    for (const record of records) {
      const series = await stats.charged('get_series', { series_id: record.id });
      expect(series.answer.status, `${record.id}: ${series.answer.text}`).to.not.equal(400);
    }
  });

  it('turns a catalogue that is not a series list into a failed source with its reason', async () => {
    serveBlsCatalogue(stats);
    stats.on('bls', '/labstat/cu/cu.series', text('<html><body>moved</body></html>', 'text/html'));
    const result = await stats.charged('find_series', { query: 'consumer price index', sources: ['bls'] });
    expectNotCharged(result);
    expect(result.answer.body.error.message).to.equal('no source answered: bls answered with an HTML page instead of data');
  });
});
