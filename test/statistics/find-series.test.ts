import { expect } from 'chai';
import { describeOnEachEngine } from '../support/databases.ts';
import { down, expectCharged, expectNotCharged, recorded } from '../life/support.ts';
import { serveSearches, statisticsHarness } from './support.ts';

describeOnEachEngine('find_series over HTTP', (engine) => {
  const stats = statisticsHarness(engine);

  it('asks all eight sources; the named country narrows them and exact title matches come first', async () => {
    serveSearches(stats);
    const result = await stats.charged('find_series', { query: 'unemployment rate in Germany' });
    // OECD's dataflow list is not served (no real recording of it exists): OECD is a failed source.
    expectCharged(result, ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id']);
    const body = result.answer.body;
    expect(body.failedSources).to.deep.equal([{ source: 'oecd', error: 'oecd answered HTTP 404: fake upstream: nothing at /oecd/dataflow/all/all/latest' }]);
    expect(body.summary).to.equal(
      '8 series candidates for "unemployment rate in Germany" (country: Germany); sources that answered: fred (5), world-bank (0), eurostat (1), imf (1), owid (1); not asked, having no series for Germany: bls, census.',
    );
    expect(body.records.map((record: { id: string }) => record.id)).to.deep.equal([
      'imf:LUR?country=DEU',
      'owid:unemployment-rate?country=DEU',
      'eurostat:une_rt_m?geo=DE',
      'fred:DCOILWTICO',
      'fred:MCOILWTICO',
      'fred:WCOILWTICO',
      'fred:ACOILWTICO',
      'fred:DCOILBRENTEU',
    ]);
    const [imf, , eurostat] = body.records;
    expect({ ...imf, retrievedAt: undefined }).to.deep.equal({
      id: 'imf:LUR?country=DEU',
      type: 'series',
      source: 'imf',
      title: 'Unemployment rate, Germany',
      url: 'https://www.imf.org/external/datamapper/LUR',
      license: 'IMF Copyright and Usage terms',
      attribution: 'Source: International Monetary Fund (data.imf.org)',
      retrievedAt: undefined,
      data: {
        series_id: 'imf:LUR?country=DEU',
        description: 'Hand-made test text: share of the labor force that is unemployed.',
        units: 'Percent of total labor force',
        frequency: 'annual',
        geography: 'Germany',
        country_code: 'DEU',
        dataset: 'World Economic Outlook (April 2026)',
      },
    });
    expect(eurostat.data).to.deep.equal({
      series_id: 'eurostat:une_rt_m?geo=DE',
      geography: 'Germany',
      country_code: 'DEU',
      dataset: 'une_rt_m',
      start: '1983-01',
      end: '2026-08',
      last_updated: '2026-09-22',
    });
    expect(body.records[3].data).to.deep.equal({
      series_id: 'fred:DCOILWTICO',
      description: 'Definitions, Sources and Explanatory Notes (http://www.eia.doe.gov/dnav/pet/TblDefs/pet_pri_spt_tbldef2.asp)',
      units: 'Dollars per Barrel',
      frequency: 'daily',
      seasonal_adjustment: 'Not Seasonally Adjusted',
      start: '1986-01-02',
      end: '2020-05-11',
      last_updated: '2020-05-13T14:01:01-05:00',
    });
    const fredSearch = stats.hits('fred', '/series/search')[0]!.query;
    expect([fredSearch.get('search_text'), fredSearch.get('file_type'), fredSearch.get('api_key'), fredSearch.get('limit')]).to.deep.equal([
      'unemployment rate in Germany',
      'json',
      'test-fred-key',
      '10',
    ]);
    const owidSearch = stats.hits('owid', '/api/search')[0]!.query;
    expect([owidSearch.get('q'), owidSearch.get('countries'), owidSearch.get('type')]).to.deep.equal(['unemployment rate', 'Germany', 'charts']);
    expect(stats.hits('world-bank', '/sources/2/indicators')[0]!.query.get('format')).to.equal('json');
  });

  it("offers the United States' own sources when the query names no other country: BLS from its series lists beside the recorded World Bank indicators", async () => {
    serveSearches(stats);
    const result = await stats.charged('find_series', { query: 'women labor force level', sources: ['world-bank', 'bls'], limit: 3 });
    expectCharged(result);
    expect(result.answer.body.records.map((record: { id: string; title: string }) => [record.id, record.title])).to.deep.equal([
      ['bls:LNS11000002', '(Seas) Civilian Labor Force Level - Women'],
      ['bls:LNS11000002Q', '(Seas) Civilian Labor Force Level - Women'],
      ['bls:LNS11000000', '(Seas) Civilian Labor Force Level'],
    ]);
    expect(result.answer.body.records[0].data).to.deep.equal({
      series_id: 'bls:LNS11000002',
      frequency: 'monthly',
      seasonal_adjustment: 'Seasonally Adjusted',
      geography: 'United States',
      country_code: 'USA',
      dataset: 'Current Population Survey (CPS)',
      start: '1948-01',
      end: '2026-06',
    });
    expect(result.answer.body.summary).to.equal('3 series candidates for "women labor force level"; sources that answered: world-bank (0), bls (3).');
  });

  it("is partial when one source fails: World Bank's status-200 error is a failed source with its own message", async () => {
    serveSearches(stats);
    stats.on('world-bank', '/sources/2/indicators', recorded('world-bank', 'error-invalid-indicator.json'));
    const result = await stats.charged('find_series', { query: 'unemployment rate in Germany', sources: ['world-bank', 'imf'] });
    expectCharged(result, ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id']);
    expect(result.answer.body.failedSources).to.deep.equal([
      { source: 'world-bank', error: 'world-bank refused the request: The provided parameter value is not valid — Invalid value' },
    ]);
    expect(result.answer.body.summary).to.equal('1 series candidate for "unemployment rate in Germany" (country: Germany); sources that answered: imf (1).');
  });

  it('is a 502, not charged, when every source asked fails', async () => {
    stats.on('fred', '/series/search', down);
    stats.on('owid', '/api/search', down);
    const result = await stats.charged('find_series', { query: 'oil', sources: ['fred', 'owid'] });
    expectNotCharged(result);
    expect(result.answer.body.error.message).to.equal(
      'no source answered: fred answered HTTP 503: service unavailable; owid answered HTTP 503: service unavailable',
    );
  });

  it('rejects an unknown source and an empty query, naming the field', async () => {
    const source = await stats.charged('find_series', { query: 'gdp', sources: ['fred', 'statcan'] });
    expectNotCharged(source, 400, 'invalid_input');
    expect(source.answer.body.error.message).to.match(/^sources\.1: /);
    const empty = await stats.charged('find_series', { query: '' });
    expectNotCharged(empty, 400, 'invalid_input');
    expect(empty.answer.body.error.message).to.match(/^query: /);
  });
});
