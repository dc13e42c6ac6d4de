import { expect } from 'chai';
import JSONstat from 'jsonstat-toolkit';
import * as bls from '../../src/connectors/bls.ts';
import * as census from '../../src/connectors/census.ts';
import * as eurostat from '../../src/connectors/eurostat.ts';
import * as fred from '../../src/connectors/fred.ts';
import * as imf from '../../src/connectors/imf.ts';
import * as oecd from '../../src/connectors/oecd.ts';
import * as owid from '../../src/connectors/owid.ts';
import * as worldBank from '../../src/connectors/world-bank.ts';
import { reasonFromBody } from '../../src/upstream/body.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import { describeRecordings, fixture, recording } from './recordings.ts';

const read = (source: string, file: string) => JSON.parse(recording(source, file)) as unknown;
const firstAndLast = <T>(list: T[], first = 3) => [...list.slice(0, first), list[list.length - 1]];
const upstreamError = (run: () => unknown): UpstreamError => {
  try {
    run();
  } catch (error) {
    if (error instanceof UpstreamError) return error;
    throw error;
  }
  throw new Error('expected an UpstreamError');
};

describeRecordings('fred', () => {
  it('reads the GDP series facts', () => {
    const [gdp] = fred.parseSeriesList(read('fred', 'series-gdp.json'));
    expect({ ...gdp, description: gdp!.description!.slice(0, 24) }).to.deep.equal({
      seriesId: 'fred:GDP',
      title: 'Gross Domestic Product',
      description: 'BEA Account Code: A191RC',
      units: 'Billions of Dollars',
      frequency: 'quarterly',
      seasonalAdjustment: 'Seasonally Adjusted Annual Rate',
      start: '1947-01-01',
      end: '2024-07-01',
      lastUpdated: '2024-12-19T07:55:01-06:00',
      url: 'https://fred.stlouisfed.org/series/GDP',
    });
  });
  it('reads GDP observations as quarters; the four "." values are left out, never numbers', () => {
    const observations = fred.parseObservations(read('fred', 'series-observations-gdp.json'), 'quarterly');
    expect(observations).to.have.length(8);
    expect(firstAndLast(observations)).to.deep.equal([
      { period: '1947-Q1', date: '1947-01-01', value: 243.164 },
      { period: '1947-Q2', date: '1947-04-01', value: 245.968 },
      { period: '1947-Q3', date: '1947-07-01', value: 249.585 },
      { period: '2024-Q3', date: '2024-07-01', value: 29374.914 },
    ]);
  });
  it('reads an empty observation list as no observations', () => {
    expect(fred.parseObservations(read('fred', 'series-observations-empty.json'), 'annual')).to.deep.equal([]);
  });
  it("reads both searches in FRED's rank order", () => {
    const monetary = fred.parseSeriesList(read('fred', 'series-search-full-text.json'));
    expect(monetary.map((series) => [series.seriesId, series.title, series.units, series.frequency])).to.deep.equal([
      ['fred:MSIM2', 'Monetary Services Index: M2 (preferred)', 'Billions of Dollars', 'monthly'],
      ['fred:MSIMZMP', 'Monetary Services Index: MZM (preferred)', 'Billions of Dollars', 'monthly'],
      ['fred:MSIALLP', 'Monetary Services Index: ALL Assets (preferred)', 'Billions of Dollars', 'monthly'],
      ['fred:OCM2P', 'Real User Cost Index of MSI-M2 (preferred)', 'Percent', 'monthly'],
      ['fred:MSIMZMA', 'Monetary Services Index: MZM (alternative)', 'Billions of Dollars', 'monthly'],
    ]);
    const oil = fred.parseSeriesList(read('fred', 'series-search-oil.json'));
    expect(oil.map((series) => [series.seriesId, series.frequency, series.start])).to.deep.equal([
      ['fred:DCOILWTICO', 'daily', '1986-01-02'],
      ['fred:MCOILWTICO', 'monthly', '1986-01-01'],
      ['fred:WCOILWTICO', 'weekly', '1986-01-03'],
      ['fred:ACOILWTICO', 'annual', '1986-01-01'],
      ['fred:DCOILBRENTEU', 'daily', '1987-05-20'],
    ]);
  });
  it('has the reason of its error body', () => {
    expect(reasonFromBody('application/json', recording('fred', 'error-400-invalid-series-id.json'))).to.equal(
      'Bad Request. Invalid value for variable series_id. Series IDs should be 25 or less alphanumeric characters.',
    );
  });
});

describeRecordings('world-bank', () => {
  it("reads Japan's GDP rows oldest first; the null 2020 value is left out", () => {
    const data = worldBank.parseData([read('world-bank', 'indicator-data-jpn-usa-gdp-page1.json')], 'NY.GDP.MKTP.CD', undefined);
    expect({ ...data, observations: undefined }).to.deep.equal({
      title: 'GDP (current US$)',
      description: undefined,
      units: 'current US$',
      frequency: 'annual',
      geography: 'Japan',
      countryCode: 'JPN',
      dataset: 'World Development Indicators',
      lastUpdated: '2021-05-25',
      observations: undefined,
    });
    expect(data.observations).to.deep.equal([
      { period: '2015', date: '2015-01-01', value: 4389475622588.97 },
      { period: '2016', date: '2016-01-01', value: 4922538141454.62 },
      { period: '2017', date: '2017-01-01', value: 4866864409657.68 },
      { period: '2018', date: '2018-01-01', value: 4954806619995.19 },
      { period: '2019', date: '2019-01-01', value: 5081769542379.77 },
    ]);
  });
  it('reads the two-year page', () => {
    const data = worldBank.parseData([read('world-bank', 'indicator-data-jpn-usa-gdp-2018-2019.json')], 'NY.GDP.MKTP.CD', undefined);
    expect(data.observations.map((observation) => [observation.period, observation.value])).to.deep.equal([
      ['2018', 4954806619995.19],
      ['2019', 5081769542379.77],
    ]);
  });
  it('reads indicator metadata and the indicator list (per_page a string there)', () => {
    expect(worldBank.parseIndicators(read('world-bank', 'indicator-metadata.json'))).to.deep.equal([
      {
        id: '1.0.HCount.1.90usd',
        name: 'Poverty Headcount ($1.90 a day)',
        source: 'LAC Equity Lab',
        description: 'The poverty headcount index measures the proportion of the population with daily per capita income (in 2011 PPP) below the poverty line.',
      },
    ]);
    expect(worldBank.parseIndicators(read('world-bank', 'indicators-list.json')).map((indicator) => indicator.id)).to.deep.equal([
      '1.0.HCount.1.90usd',
      '1.0.HCount.2.5usd',
    ]);
  });
  it("turns the status-200 error array into a failure with the API's own words", () => {
    const error = upstreamError(() => worldBank.readPage(read('world-bank', 'error-invalid-indicator.json')));
    expect(error.message).to.equal('world-bank refused the request: The provided parameter value is not valid — Invalid value');
  });
  it('names the HTML error page of a 400 by its title', () => {
    expect(reasonFromBody('text/html', recording('world-bank', 'error-invalid-source-400.txt'))).to.equal('an HTML page titled "Request Error"');
  });
});

describeRecordings('bls', () => {
  it('reads the flour price series with its catalog, oldest first', () => {
    const series = bls.parseTimeseries(read('bls', 'timeseries-post-catalog-calculations.json'), 'APU0000701111');
    expect({ ...series, observations: firstAndLast(series.observations) }).to.deep.equal({
      id: 'APU0000701111',
      title: 'Flour, white, all purpose, per lb. (453.6 gm) in U.S. city average, average price, not seasonally adjusted',
      dataset: 'Consumer Price Index Average Price Data',
      geography: 'U.S. city average',
      observations: [
        { period: '2022-01', date: '2022-01-01', value: 0.424 },
        { period: '2022-02', date: '2022-02-01', value: 0.428 },
        { period: '2022-03', date: '2022-03-01', value: 0.448 },
        { period: '2022-12', date: '2022-12-01', value: 0.522 },
      ],
    });
  });
  it('reads CPI-U for 1913-1914 as 24 months', () => {
    const series = bls.parseTimeseries(read('bls', 'timeseries-post-cpi-1913-1914.json'), 'CUUR0000SA0');
    expect(series.observations).to.have.length(24);
    expect(firstAndLast(series.observations)).to.deep.equal([
      { period: '1913-01', date: '1913-01-01', value: 9.8 },
      { period: '1913-02', date: '1913-02-01', value: 9.8 },
      { period: '1913-03', date: '1913-03-01', value: 9.8 },
      { period: '1914-12', date: '1914-12-01', value: 10.1 },
    ]);
  });
  it('leaves the M13 annual average out of a monthly series', () => {
    const series = bls.parseTimeseries(read('bls', 'timeseries-post-cpi-1913-annualaverage.json'), 'CUUR0000SA0');
    expect([series.observations.length, series.observations.map((observation) => observation.period).includes('1913-13')]).to.deep.equal([12, false]);
    expect(series.observations.slice(4, 7)).to.deep.equal([
      { period: '1913-05', date: '1913-05-01', value: 9.7 },
      { period: '1913-06', date: '1913-06-01', value: 9.8 },
      { period: '1913-07', date: '1913-07-01', value: 9.9 },
    ]);
  });
});

describeRecordings('oecd', () => {
  const kei = oecd.dataflowOf('DSD_KEI@DF_KEI')!;
  const lfs = oecd.dataflowOf('DSD_LFS@DF_IALFS_UNE_M')!;
  it('reads the unsorted KEI long-term interest rate CSV (plain codes) sorted by month', () => {
    const series = oecd.seriesFromCsv(recording('oecd', 'data-v1-kei-gbr-irlt-2023.csv'), kei, {}, { REF_AREA: 'GBR', FREQ: 'M', MEASURE: 'IRLT' });
    expect({ ...series, observations: firstAndLast(series.observations) }).to.deep.equal({
      seriesId: 'oecd:DSD_KEI@DF_KEI?REF_AREA=GBR&FREQ=M&MEASURE=IRLT&UNIT_MEASURE=PA&ACTIVITY=_Z&ADJUSTMENT=_Z&TRANSFORMATION=_Z',
      title: 'Long-term interest rates (government bond yields)',
      units: 'Percent per annum',
      frequency: 'monthly',
      seasonalAdjustment: undefined,
      geography: 'United Kingdom',
      countryCode: 'GBR',
      dataset: 'Key short-term economic indicators',
      url: oecd.explorerUrl(kei),
      notes: [],
      observations: [
        { period: '2023-01', date: '2023-01-01', value: 3.5115 },
        { period: '2023-02', date: '2023-02-01', value: 3.5553 },
        { period: '2023-03', date: '2023-03-01', value: 3.5638 },
        { period: '2024-01', date: '2024-01-01', value: 3.9319 },
      ],
    });
    expect(series.observations).to.have.length(13);
  });
  it('reads the labelled CPI answer for the United Kingdom (annual growth over 1 year): six years, all the server sent though 2020-01 to 2022-01 was asked', () => {
    const prices = oecd.dataflowOf('DSD_PRICES@DF_PRICES_ALL')!;
    const series = oecd.seriesFromCsv(recording('oecd', 'data-v2-prices-gbr-cpi-annual-growth-labels.csv'), prices, {}, { REF_AREA: 'GBR', FREQ: 'A' });
    expect({ ...series, observations: series.observations.map((observation) => [observation.period, observation.value]) }).to.deep.equal({
      seriesId: 'oecd:DSD_PRICES@DF_PRICES_ALL?REF_AREA=GBR&FREQ=A&METHODOLOGY=N&MEASURE=CPI&UNIT_MEASURE=PA&EXPENDITURE=_T&ADJUSTMENT=N&TRANSFORMATION=GY',
      title: 'Consumer price index',
      units: 'Percent per annum',
      frequency: 'annual',
      seasonalAdjustment: 'Neither seasonally adjusted nor calendar adjusted',
      geography: 'United Kingdom',
      countryCode: 'GBR',
      dataset: 'Consumer price indices (CPIs, HICPs), COICOP 1999',
      url: oecd.explorerUrl(prices),
      notes: [],
      observations: [
        ['2020', 1],
        ['2021', 2.5],
        ['2022', 7.9],
        ['2023', 6.8],
        ['2024', 3.3],
        ['2025', 3.9],
      ],
    });
  });
  it('reads the labelled LFS CSV and drops the row outside the period asked', () => {
    const series = oecd.seriesFromCsv(
      recording('oecd', 'data-v2-lfs-usa-unemployment-labels.csv'),
      lfs,
      { start: '2023-01', end: '2023-06' },
      { REF_AREA: 'USA' },
    );
    expect({ ...series, url: undefined }).to.deep.equal({
      seriesId:
        'oecd:DSD_LFS@DF_IALFS_UNE_M?REF_AREA=USA&MEASURE=UNE_LF_M&UNIT_MEASURE=PT_LF_SUB&TRANSFORMATION=_Z&ADJUSTMENT=N&SEX=_T&AGE=Y_GE15&ACTIVITY=_Z&FREQ=M',
      title: 'Monthly unemployment rate',
      units: 'Percentage of labour force in the same subgroup',
      frequency: 'monthly',
      seasonalAdjustment: 'Neither seasonally adjusted nor calendar adjusted',
      geography: 'United States',
      countryCode: 'USA',
      dataset: 'Monthly unemployment rates',
      url: undefined,
      notes: [],
      observations: [
        { period: '2023-01', date: '2023-01-01', value: 3.9 },
        { period: '2023-02', date: '2023-02-01', value: 3.9 },
        { period: '2023-05', date: '2023-05-01', value: 3.4 },
        { period: '2023-06', date: '2023-06-01', value: 3.8 },
      ],
    });
  });
});

describeRecordings('eurostat', () => {
  const une = JSON.parse(recording('eurostat', 'data-une-rt-m-de-xx-since-2024-01.json')) as object;
  it('reads German monthly unemployment: 31 values, the empty newest month left out', () => {
    const series = eurostat.seriesFromDataset(une, { id: 'une_rt_m' }, { geo: 'DE' });
    expect({ ...series, observations: firstAndLast(series.observations) }).to.deep.equal({
      seriesId: 'eurostat:une_rt_m?freq=M&s_adj=SA&age=TOTAL&unit=PC_ACT&sex=T&geo=DE',
      title: 'Unemployment by sex and age - monthly data',
      units: 'Percentage of population in the labour force',
      frequency: 'monthly',
      seasonalAdjustment: 'Seasonally adjusted data, not calendar adjusted data',
      geography: 'Germany',
      countryCode: 'DEU',
      dataset: 'une_rt_m',
      lastUpdated: '2026-09-22T11:00:00+0200',
      url: 'https://ec.europa.eu/eurostat/databrowser/view/une_rt_m/default/table',
      notes: [],
      observations: [
        { period: '2024-01', date: '2024-01-01', value: 3.2 },
        { period: '2024-02', date: '2024-02-01', value: 3.2 },
        { period: '2024-03', date: '2024-03-01', value: 3.3 },
        { period: '2026-07', date: '2026-07-01', value: 4 },
      ],
    });
    expect(series.observations).to.have.length(31);
  });
  it('says that the code XX, dropped silently by Eurostat, is not in the answer', () => {
    expect(eurostat.missingCodes(JSONstat(une), { geo: ['DE', 'XX'] })).to.deep.equal(['geo=XX']);
    const error = upstreamError(() => eurostat.seriesFromDataset(une, { id: 'une_rt_m' }, { geo: 'XX' }));
    expect(error.message).to.equal('eurostat has no geo=XX in dataset une_rt_m: it leaves out unknown codes without an error');
  });
  it('reads an empty answer (value {}) as a series without observations', () => {
    const series = eurostat.seriesFromDataset(
      JSON.parse(recording('eurostat', 'data-nama-10-gdp-de-since-2030-empty.json')) as object,
      { id: 'nama_10_gdp' },
      { geo: 'DE', unit: 'CP_MEUR', na_item: 'B1GQ' },
    );
    expect([series.seriesId, series.units, series.frequency, series.observations]).to.deep.equal([
      'eurostat:nama_10_gdp?freq=A&unit=CP_MEUR&na_item=B1GQ&geo=DE',
      'Current prices, million euro',
      'annual',
      [],
    ]);
  });
  it('leaves confidential periods out and says how many there were', () => {
    const series = eurostat.seriesFromDataset(
      JSON.parse(recording('eurostat', 'data-sts-inpr-m-ie-confidential.json')) as object,
      { id: 'sts_inpr_m' },
      { geo: 'IE' },
    );
    expect([series.title, series.geography, series.countryCode, series.observations, series.notes]).to.deep.equal([
      'Production in industry - monthly data',
      'Ireland',
      'IRL',
      [],
      ['6 periods flagged without a value (e.g. confidential) were left out'],
    ]);
  });
});

describeRecordings('imf', () => {
  it("reads the SDMX-ML 3.0 answer: four quarters of Japan's RGV_REVS in millions", () => {
    const series = imf.seriesFromSdmx(recording('imf', 'sdmx3-data-il-jpn-rgv-revs-q.xml'), { id: 'IMF.STA/IL/JPN.RGV_REVS.*.Q' }, 'IMF.STA/IL', [
      'JPN',
      'RGV_REVS',
      '*',
      'Q',
    ]);
    expect(series).to.deep.equal({
      seriesId: 'imf:IMF.STA/IL/JPN.RGV_REVS.*.Q',
      title: 'RGV_REVS, JPN',
      units: 'FTO, millions',
      frequency: 'quarterly',
      geography: 'Japan',
      countryCode: 'JPN',
      dataset: 'IMF.STA IL',
      notes: [],
      observations: [
        { period: '2023-Q1', date: '2023-01-01', value: 27198880.827 },
        { period: '2023-Q2', date: '2023-04-01', value: 27198880.827 },
        { period: '2023-Q3', date: '2023-07-01', value: 27198880.827 },
        { period: '2023-Q4', date: '2023-10-01', value: 27198880.827 },
      ],
    });
  });
});

describe('statistics connectors on hand-made answers (documented formats, no recording exists)', () => {
  it('owid: a search keeps charts only; the chart CSV gives one entity, an empty cell left out', () => {
    expect(owid.parseSearch(JSON.parse(fixture('owid', 'hand-made-search-unemployment-germany.json')))).to.deep.equal([
      {
        slug: 'unemployment-rate',
        title: 'Unemployment rate',
        subtitle: 'Hand-made test entry: share of the labor force that is without work but available for and seeking employment.',
      },
    ]);
    const read = owid.parseChartCsv(fixture('owid', 'hand-made-unemployment-rate-deu.csv'), 'DEU');
    expect([read.column, read.entity, read.observations.map((observation) => observation.period)]).to.deep.equal([
      'unemployment_rate',
      'Germany',
      ['2019', '2020', '2021', '2023'],
    ]);
    expect(upstreamError(() => owid.parseChartCsv(fixture('owid', 'hand-made-unemployment-rate-deu.csv'), 'DEU', 'gdp')).message).to.equal(
      'owid: the chart has no column gdp (its columns: unemployment_rate)',
    );
  });
  it('census: the fill value is left out; 204 (nothing matched) is an empty series', () => {
    expect(census.parseTable(JSON.parse(fixture('census', 'hand-made-saipe-poverty-rate-us.json')), 'SAEPOVRTALL_PT')).to.deep.equal({
      name: 'United States',
      observations: [
        { period: '2019', date: '2019-01-01', value: 12.3 },
        { period: '2020', date: '2020-01-01', value: 11.9 },
        { period: '2022', date: '2022-01-01', value: 12.6 },
      ],
    });
    expect(census.parseTable(null, 'SAEPOVRTALL_PT')).to.deep.equal({ name: undefined, observations: [] });
    expect(census.geographyOf({ state: '06', county: '037' })).to.deep.equal({ for: 'county:037', in: 'state:06' });
  });
  it('imf DataMapper: indicators with a label; an answer without values means the indicator or country is unknown', () => {
    expect(
      imf
        .parseIndicators(JSON.parse(fixture('imf', 'hand-made-datamapper-indicators.json')))
        .map((indicator) => [indicator.code, indicator.label, indicator.unit]),
    ).to.deep.equal([
      ['NGDP_RPCH', 'Real GDP growth', 'Annual percent change'],
      ['LUR', 'Unemployment rate', 'Percent of total labor force'],
    ]);
    expect(upstreamError(() => imf.parseValues({ api: { version: '1', 'output-method': 'json' } }, 'LUR', 'XXX')).message).to.equal(
      'imf has no values for indicator LUR in XXX (the DataMapper answered without them)',
    );
  });
  it('eurostat: the table of contents gives datasets and tables, titles without their indentation', () => {
    expect(eurostat.parseToc(fixture('eurostat', 'hand-made-toc-two-datasets.txt'))).to.deep.equal([
      {
        title: 'Unemployment by sex and age - monthly data',
        code: 'une_rt_m',
        type: 'dataset',
        lastUpdate: '22.09.2026',
        dataStart: '1983-01',
        dataEnd: '2026-08',
      },
      {
        title: 'Production in industry - monthly data',
        code: 'sts_inpr_m',
        type: 'dataset',
        lastUpdate: '01.08.2026',
        dataStart: '1953-01',
        dataEnd: '2026-06',
      },
    ]);
  });
});
