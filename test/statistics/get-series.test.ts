import { expect } from 'chai';
import { describeOnEachEngine } from '../support/databases.ts';
import { json } from '../support/fake-upstream.ts';
import { recording as recordingOf } from '../connectors/recordings.ts';
import { down, expectCharged, expectNotCharged, recorded } from '../life/support.ts';
import { MAX_OBSERVATIONS } from '../../src/tools/get-series.ts';
import { serveData, statisticsHarness, text } from './support.ts';

type Observation = { period: string; date: string; value: number; status?: string };

describeOnEachEngine('get_series over HTTP', (engine) => {
  const stats = statisticsHarness(engine);
  const get = async (body: object) => {
    serveData(stats);
    return stats.charged('get_series', body);
  };
  const periodsAndValues = (result: Awaited<ReturnType<typeof get>>) =>
    result.answer.body.records[0].data.observations.map((observation: Observation) => [observation.period, observation.value]);

  it('FRED: series facts and quarterly values, "." left out, the period pushed down as dates, the key sent', async () => {
    const result = await get({ series_id: 'fred:GDP', start: '1947', end: '2024-07' });
    expectCharged(result);
    const [record] = result.answer.body.records;
    expect({
      ...record,
      retrievedAt: undefined,
      data: { ...record.data, description: record.data.description.slice(0, 24), observations: record.data.observations.slice(0, 3) },
    }).to.deep.equal({
      id: 'fred:GDP',
      type: 'series',
      source: 'fred',
      title: 'Gross Domestic Product',
      url: 'https://fred.stlouisfed.org/series/GDP',
      license: 'FRED API Terms of Use (some series third-party copyrighted)',
      attribution:
        'Source: FRED, Federal Reserve Bank of St. Louis. This product uses the FRED API but is not endorsed or certified by the Federal Reserve Bank of St. Louis',
      retrievedAt: undefined,
      data: {
        series_id: 'fred:GDP',
        description: 'BEA Account Code: A191RC',
        units: 'Billions of Dollars',
        frequency: 'quarterly',
        seasonal_adjustment: 'Seasonally Adjusted Annual Rate',
        last_updated: '2024-12-19T07:55:01-06:00',
        observation_count: 8,
        observations: [
          { period: '1947-Q1', date: '1947-01-01', value: 243.164 },
          { period: '1947-Q2', date: '1947-04-01', value: 245.968 },
          { period: '1947-Q3', date: '1947-07-01', value: 249.585 },
        ],
      },
    });
    expect(result.answer.body.summary).to.equal('Gross Domestic Product: 8 observations from 1947-Q1 to 2024-Q3 (Billions of Dollars), from fred.');
    const asked = stats.hits('fred', '/series/observations')[0]!.query;
    expect([asked.get('series_id'), asked.get('observation_start'), asked.get('observation_end'), asked.get('api_key'), asked.get('file_type')]).to.deep.equal([
      'GDP',
      '1947-01-01',
      '2024-07-31',
      'test-fred-key',
      'json',
    ]);
  });

  it("World Bank: the country argument replaces the id's, years pushed down, every page read, the null year left out", async () => {
    const result = await get({ series_id: 'world-bank:NY.GDP.MKTP.CD?country=USA', country: 'JP', start: '2015', end: '2019' });
    expectCharged(result);
    const [record] = result.answer.body.records;
    expect([record.id, record.title, record.url, record.data.units, record.data.geography, record.data.country_code]).to.deep.equal([
      'world-bank:NY.GDP.MKTP.CD?country=JPN',
      'GDP (current US$)',
      'https://data.worldbank.org/indicator/NY.GDP.MKTP.CD?locations=JP',
      'current US$',
      'Japan',
      'JPN',
    ]);
    expect(periodsAndValues(result)).to.deep.equal([
      ['2015', 4389475622588.97],
      ['2016', 4922538141454.62],
      ['2017', 4866864409657.68],
      ['2018', 4954806619995.19],
      ['2019', 5081769542379.77],
    ]);
    const pages = stats
      .hits('world-bank', '/country/JPN/indicator/NY.GDP.MKTP.CD')
      .map((hit) => [hit.query.get('page'), hit.query.get('date'), hit.query.get('format')]);
    expect(pages).to.deep.equal([
      ['1', '2015:2019', 'json'],
      ['2', '2015:2019', 'json'],
      ['3', '2015:2019', 'json'],
    ]);
  });

  it("a series the source does not know is a 502 with the source's reason (FRED's recorded 400; a dataflow the OECD connector cannot read)", async () => {
    serveData(stats);
    stats.on('fred', '/series', recorded('fred', 'error-400-invalid-series-id.json', { status: 400 }));
    const fred = await stats.charged('get_series', { series_id: 'fred:NOT_A_SERIES_ID_OF_ANY_KIND' });
    expectNotCharged(fred);
    expect(fred.answer.body.error.message).to.equal(
      'no source answered: fred answered HTTP 400: Bad Request. Invalid value for variable series_id. Series IDs should be 25 or less alphanumeric characters.',
    );
    const oecd = await stats.charged('get_series', { series_id: 'oecd:DSD_XYZ@DF_XYZ?REF_AREA=FRA' });
    expectNotCharged(oecd);
    expect(oecd.answer.body.error.message).to.equal(
      'no source answered: oecd: a series id names its dataflow as AGENCY,DATAFLOW,VERSION (e.g. OECD.SDD.STES,DSD_KEI@DF_KEI,4.0) or one of DSD_KEI@DF_KEI, DSD_LFS@DF_IALFS_UNE_M, DSD_PRICES@DF_PRICES_ALL; got DSD_XYZ@DF_XYZ',
    );
    // A dataflow named in full is looked up in the structure API; one it does not know is the source's 404.
    stats.on('oecd', '/dataflow/OECD.XYZ/DSD_XYZ@DF_XYZ/1.0', { status: 404, body: 'NoResultsFound', contentType: 'text/plain' });
    const unknown = await stats.charged('get_series', { series_id: 'oecd:OECD.XYZ,DSD_XYZ@DF_XYZ,1.0?REF_AREA=FRA' });
    expectNotCharged(unknown);
    expect(unknown.answer.body.error.message).to.equal('no source answered: oecd answered HTTP 404: NoResultsFound');
  });

  it("is partial when the World Bank's indicator description cannot be had: the values still come", async () => {
    serveData(stats);
    stats.on('world-bank', '/indicator/NY.GDP.MKTP.CD', down);
    const result = await stats.charged('get_series', { series_id: 'world-bank:NY.GDP.MKTP.CD?country=JPN' });
    expectCharged(result, ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id']);
    expect(result.answer.body.failedSources).to.deep.equal([
      { source: 'world-bank', error: "world-bank answered HTTP 503: service unavailable; missing from the answer: the indicator's description" },
    ]);
    expect(result.answer.body.records[0].data.observation_count).to.equal(5);
  });

  it('BLS: years pushed down, months oldest first, no key sent when none is set', async () => {
    const result = await get({ series_id: 'bls:CUUR0000SA0', start: '1913', end: '1914' });
    expectCharged(result);
    const data = result.answer.body.records[0].data;
    expect([data.series_id, data.units, data.frequency, data.seasonal_adjustment, data.geography, data.observation_count]).to.deep.equal([
      'bls:CUUR0000SA0',
      'Index 1982-1984=100',
      'monthly',
      'Not Seasonally Adjusted',
      'United States',
      24,
    ]);
    expect(periodsAndValues(result).slice(0, 3)).to.deep.equal([
      ['1913-01', 9.8],
      ['1913-02', 9.8],
      ['1913-03', 9.8],
    ]);
    const asked = stats.hits('bls', '/timeseries/data/CUUR0000SA0')[0]!.query;
    expect([asked.get('startyear'), asked.get('endyear'), asked.has('registrationkey'), asked.has('catalog')]).to.deep.equal(['1913', '1914', false, false]);
  });

  it('BLS: a footnoted value carries its footnote as status (hand-made answer in the documented shape)', async () => {
    stats.on(
      'bls',
      '/timeseries/data/LNS14000000',
      json({
        status: 'REQUEST_SUCCEEDED',
        responseTime: 20,
        message: [],
        Results: {
          series: [
            {
              seriesID: 'LNS14000000',
              data: [
                { year: '2026', period: 'M10', periodName: 'October', latest: 'true', value: '4.4', footnotes: [{ code: 'P', text: 'Preliminary.' }] },
                { year: '2026', period: 'M09', periodName: 'September', value: '-', footnotes: [{}] },
                { year: '2026', period: 'M08', periodName: 'August', value: '4.3', footnotes: [{}] },
              ],
            },
          ],
        },
      }),
    );
    const result = await stats.charged('get_series', { series_id: 'bls:LNS14000000' });
    expectCharged(result);
    expect(result.answer.body.records[0].data.observations).to.deep.equal([
      { period: '2026-08', date: '2026-08-01', value: 4.3 },
      { period: '2026-10', date: '2026-10-01', value: 4.4, status: 'preliminary' },
    ]);
  });

  it("BLS: a status-200 REQUEST_NOT_PROCESSED is a 502 with BLS's message, not charged", async () => {
    stats.on(
      'bls',
      '/timeseries/data/CUUR0000SA0',
      json({
        status: 'REQUEST_NOT_PROCESSED',
        responseTime: 21,
        Results: {},
        message: ['Request could not be serviced, as the daily threshold for total number of requests allocated to the user has been reached.'],
      }),
    );
    const result = await stats.charged('get_series', { series_id: 'bls:CUUR0000SA0' });
    expectNotCharged(result);
    // The over-quota refusal also marks BLS's daily budget spent until its reset (tools.yaml budget.spent_signal).
    expect(result.answer.body.error.message).to.match(
      /^no source answered: bls answered that its budget for 24 hours is spent \(HTTP 200: Request could not be serviced, as the daily threshold for total number of requests allocated to the user has been reached\.\); it is not asked again until \d{4}-\d\d-\d\dT[\d:.]+Z$/,
    );
  });

  it("OECD: the key built in the dataflow's order, the full series id answered, rows sorted", async () => {
    const result = await get({ series_id: 'oecd:DSD_KEI@DF_KEI?REF_AREA=GBR&FREQ=M&MEASURE=IRLT', start: '2023-01', end: '2024-01' });
    expectCharged(result);
    const data = result.answer.body.records[0].data;
    expect([data.series_id, data.units, data.geography, data.country_code, data.observation_count]).to.deep.equal([
      'oecd:DSD_KEI@DF_KEI?REF_AREA=GBR&FREQ=M&MEASURE=IRLT&UNIT_MEASURE=PA&ACTIVITY=_Z&ADJUSTMENT=_Z&TRANSFORMATION=_Z',
      'Percent per annum',
      'United Kingdom',
      'GBR',
      13,
    ]);
    expect(periodsAndValues(result).slice(-3)).to.deep.equal([
      ['2023-11', 4.2721],
      ['2023-12', 3.8622],
      ['2024-01', 3.9319],
    ]);
    const asked = stats.hits('oecd', '/data/OECD.SDD.STES,DSD_KEI@DF_KEI,4.0/GBR.M.IRLT....')[0]!.query;
    expect([asked.get('startPeriod'), asked.get('endPeriod'), asked.get('format')]).to.deep.equal(['2023-01', '2024-01', 'csvfilewithlabels']);
  });

  it('Eurostat: the country argument becomes geo, the other dimensions are filled from the answer', async () => {
    const result = await get({ series_id: 'eurostat:une_rt_m?unit=PC_ACT', country: 'DE', start: '2024-01' });
    expectCharged(result);
    const data = result.answer.body.records[0].data;
    expect([data.series_id, data.units, data.seasonal_adjustment, data.geography, data.country_code, data.last_updated, data.observation_count]).to.deep.equal([
      'eurostat:une_rt_m?freq=M&s_adj=SA&age=TOTAL&unit=PC_ACT&sex=T&geo=DE',
      'Percentage of population in the labour force',
      'Seasonally adjusted data, not calendar adjusted data',
      'Germany',
      'DEU',
      '2026-09-22T11:00:00+0200',
      31,
    ]);
    const asked = stats.hits('eurostat', '/statistics/1.0/data/une_rt_m')[0]!.query;
    expect([asked.get('geo'), asked.get('unit'), asked.get('sinceTimePeriod'), asked.get('format')]).to.deep.equal(['DE', 'PC_ACT', '2024-01', 'JSON']);
  });

  it('Eurostat: a code it dropped silently is a 502 that says so, not charged', async () => {
    const result = await get({ series_id: 'eurostat:une_rt_m?geo=XX' });
    expectNotCharged(result);
    expect(result.answer.body.error.message).to.equal(
      'no source answered: eurostat has no geo=XX in dataset une_rt_m: it leaves out unknown codes without an error',
    );
  });

  it('Eurostat: its JSON error body (documented shape) gives the reason of the 502', async () => {
    serveData(stats);
    stats.on('eurostat', '/statistics/1.0/data/une_rt_x', json({ error: [{ status: 404, id: 100, label: 'No results found' }] }, { status: 404 }));
    const result = await stats.charged('get_series', { series_id: 'eurostat:une_rt_x?geo=DE' });
    expectNotCharged(result);
    expect(result.answer.body.error.message).to.equal('no source answered: eurostat answered HTTP 404: No results found');
  });

  it("IMF DataMapper: the country argument replaces the id's, years asked as a list, the null year left out", async () => {
    const result = await get({ series_id: 'imf:LUR?country=FRA', country: 'DEU', start: '2019', end: '2023' });
    expectCharged(result);
    expect(result.answer.body.summary).to.equal(
      'Unemployment rate, Germany: 4 observations from 2019 to 2022 (Percent of total labor force), from imf; World Economic Outlook values include projections for recent and coming years.',
    );
    expect(periodsAndValues(result)).to.deep.equal([
      ['2019', 3.1],
      ['2020', 3.6],
      ['2021', 3.6],
      ['2022', 3.1],
    ]);
    expect(stats.hits('imf', '/datamapper/api/v1/LUR/DEU')[0]!.query.get('periods')).to.equal('2019,2020,2021,2022,2023');
  });

  it('IMF SDMX 3.0: an <agency>/<flow>/<key> id is read from the recorded SDMX-ML, the time filter sent as the recorded request sends it', async () => {
    stats.on('imf', '/data/dataflow/IMF.STA/IL/+/JPN.RGV_REVS.*.Q', text(recordingOf('imf', 'sdmx3-data-il-jpn-rgv-revs-q.xml'), 'application/xml'));
    const result = await stats.charged('get_series', { series_id: 'imf:IMF.STA/IL/JPN.RGV_REVS.*.Q', start: '2023-01-01', end: '2024-02-01' });
    expectCharged(result);
    expect(periodsAndValues(result)).to.deep.equal([
      ['2023-Q1', 27198880.827],
      ['2023-Q2', 27198880.827],
      ['2023-Q3', 27198880.827],
      ['2023-Q4', 27198880.827],
    ]);
    const asked = stats.hits('imf', '/data/dataflow/IMF.STA/IL/+/JPN.RGV_REVS.*.Q')[0]!;
    expect([asked.search, asked.headers.accept]).to.deep.equal([
      '?dimensionAtObservation=TIME_PERIOD&detail=full&includeHistory=false&c%5BTIME_PERIOD%5D=ge:2023-01-01+le:2024-02-01',
      'application/xml',
    ]);
  });

  it('OWID: the chart CSV filtered to the country, an empty cell left out, units from the metadata', async () => {
    const result = await get({ series_id: 'owid:unemployment-rate?country=DEU', end: '2023' });
    expectCharged(result);
    const data = result.answer.body.records[0].data;
    expect([data.units, data.description, data.last_updated]).to.deep.equal([
      '% of labor force',
      'Hand-made test text: share of the labor force without work.',
      '2025-01-20',
    ]);
    expect(periodsAndValues(result)).to.deep.equal([
      ['2019', 3.1],
      ['2020', 3.9],
      ['2021', 3.6],
      ['2023', 3.1],
    ]);
    const asked = stats.hits('owid', '/grapher/unemployment-rate.csv')[0]!.query;
    expect([asked.get('csvType'), asked.get('country'), asked.get('time')]).to.deep.equal(['filtered', '~DEU', 'earliest..2023']);
  });

  it('Census: the key sent, the -666666666 fill value never a number', async () => {
    const result = await get({ series_id: 'census:timeseries/poverty/saipe/SAEPOVRTALL_PT', start: '2019' });
    expectCharged(result);
    expect(periodsAndValues(result)).to.deep.equal([
      ['2019', 12.3],
      ['2020', 11.9],
      ['2022', 12.6],
    ]);
    const asked = stats.hits('census', '/timeseries/poverty/saipe')[0]!.query;
    expect([asked.get('get'), asked.get('for'), asked.get('time'), asked.get('key')]).to.deep.equal([
      'NAME,SAEPOVRTALL_PT',
      'us:*',
      'from 2019',
      'test-census-key',
    ]);
  });

  it('Census: the HTML page it answers with status 200 for a bad key is a 502 that says so, not charged', async () => {
    stats.on(
      'census',
      '/timeseries/poverty/saipe',
      text('<html><head><title>Invalid Key</title></head><body>You included a key with this request, however, it is not valid.</body></html>', 'text/html'),
    );
    const result = await stats.charged('get_series', { series_id: 'census:timeseries/poverty/saipe/SAEPOVRTALL_PT' });
    expectNotCharged(result);
    expect(result.answer.body.error.message).to.equal(
      'no source answered: census answered with an HTML page instead of JSON: the Census API answers so when its key is missing or not valid (check SOURCE_CENSUS_KEY)',
    );
  });

  it(`cuts a series longer than ${MAX_OBSERVATIONS} observations to the latest ones and says so`, async () => {
    serveData(stats);
    const days = Array.from({ length: MAX_OBSERVATIONS + 5 }, (_, index) => ({
      date: new Date(Date.UTC(1990, 0, 1 + index)).toISOString().slice(0, 10),
      value: String(index),
    }));
    stats.on('fred', '/series/observations', json({ count: days.length, observations: days }));
    stats.on('fred', '/series', json({ seriess: [{ id: 'DAILY', title: 'A hand-made daily series', frequency_short: 'D', units: 'Units' }] }));
    const result = await stats.charged('get_series', { series_id: 'fred:DAILY' });
    expectCharged(result);
    const data = result.answer.body.records[0].data;
    expect([data.observation_count, data.observations[0].value, result.answer.body.summary]).to.deep.equal([
      MAX_OBSERVATIONS,
      5,
      'A hand-made daily series: 10000 observations from 1990-01-06 to 2017-05-23 (Units), from fred; cut to the latest 10,000 of 10,005 observations (narrow it with start/end).',
    ]);
  });

  it("rejects malformed input naming the field: the id's shape, its dimension parts, the country", async () => {
    const cases: Array<[object, RegExp]> = [
      [{ series_id: 'statcan:123' }, /^series_id: /],
      [{ series_id: 'world-bank:NY.GDP.MKTP.CD?country' }, /^series_id: "country" in "world-bank:NY.GDP.MKTP.CD\?country" is not a <dimension>=<CODE> part/],
      [{ series_id: 'imf:LUR', country: 'ZZ' }, /^country: "ZZ" is not an ISO 3166-1 country code$/],
      [{ series_id: 'fred:GDP', country: 'US' }, /^country: fred series are not per country/],
      [{ series_id: 'fred:GDP', start: '2020-13' }, /^start: /],
    ];
    for (const [body, message] of cases) {
      const result = await stats.charged('get_series', body);
      expectNotCharged(result, 400, 'invalid_input');
      expect(result.answer.body.error.message).to.match(message);
    }
  });
});
