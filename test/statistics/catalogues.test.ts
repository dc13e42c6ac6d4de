import { expect } from 'chai';
import { CATALOGUE_SURVEYS, pack, readSeriesList, SeriesListReader, unpack } from '../../src/connectors/bls-catalogue.ts';
import { catalogueAddress, datasetOf, readDatasets, readIndicatorSeries, readVariables } from '../../src/connectors/census-catalogue.ts';
import {
  dataflowIndex,
  keyCodes,
  measureDimension,
  readAvailability,
  readDataflows,
  readStructure,
  refOf,
  type Structure,
} from '../../src/connectors/oecd-catalogue.ts';
import { CatalogueIndex, expandQuery, STORED_FROM, type IndexedEntry } from '../../src/statistics/catalogue-index.ts';
import { CatalogueStore } from '../../src/statistics/catalogues.ts';
import { recording, recordingsFolder } from '../connectors/recordings.ts';
import { readStructureParts, StructureReader } from '../../src/connectors/sdmx-structure-reader.ts';
import type { UpstreamError } from '../../src/upstream/errors.ts';
import { readdirSync } from 'node:fs';
import { PRESET_WORDS } from '../../src/connectors/oecd.ts';

/** A text cut into pieces of `size` characters, as a download may hand it over. */
const piecesOf = (text: string, size: number) => Array.from({ length: Math.ceil(text.length / size) }, (_, at) => text.slice(at * size, (at + 1) * size));

/** CES0500000003 as its line in the recorded ce.series reads. */
const AVERAGE_HOURLY_EARNINGS = {
  id: 'CES0500000003',
  title: 'Average hourly earnings of all employees, total private, seasonally adjusted',
  survey: 'ce',
  seasonal: 'S',
  frequency: 'monthly',
  begin: ['2006', 'M03'],
  end: ['2025', 'M08'],
};

describe('catalogue search', () => {
  it('adds the catalogue words of a synonym to the query, keeping the words asked', () => {
    expect(expandQuery('Inflation in Japan')).to.equal('Inflation in Japan consumer price index');
    expect(expandQuery('housing starts')).to.equal('housing starts new residential construction housing units started');
    expect(expandQuery('rainfall')).to.equal('rainfall');
  });

  it('ranks by title before other words, matches prefixes and near spellings, and weighs boosted entries more', async () => {
    const index = new CatalogueIndex(new Map([['b', 3]]));
    await index.addAll([
      { id: 'a', title: 'Unemployment rate, total', text: 'Labour force survey' },
      { id: 'b', title: 'Unemployment rate, youth' },
      { id: 'c', title: 'Employment level', text: 'unemployment' },
    ]);
    expect(index.find('unemployment rate', 3).map((match) => match.id)).to.deep.equal(['b', 'a', 'c']);
    expect(index.find('unemploy', 1).map((match) => match.id)).to.deep.equal(['b']);
    expect(index.find('unemploymnet', 3).map((match) => match.id)).to.include('a');
    expect(index.size).to.equal(3);
    // The further words are searched, not kept beside the index; and an index is filled once.
    expect([index.find('survey', 1).map((match) => match.id), index.entry('a')]).to.deep.equal([
      ['a'],
      { id: 'a', title: 'Unemployment rate, total', group: undefined, data: undefined },
    ]);
    expect(() => index.fill()).to.throw('a catalogue index is filled once');
  });

  it('keeps a large catalogue in a database file and ranks it as a small one: title first, prefixes, near spellings, boosts', async () => {
    const index = new CatalogueIndex(new Map([['b', 3]]), { storedFrom: 0 });
    await index.addAll([
      { id: 'a', title: 'Unemployment rate, total', text: 'Labour force survey' },
      { id: 'b', title: 'Unemployment rate, youth' },
      { id: 'c', title: 'Employment level', text: 'unemployment' },
      { id: 'a', title: 'The same id again' },
    ]);
    expect(index.isStored).to.equal(true);
    expect(index.find('unemployment rate', 3).map((match) => match.id)).to.deep.equal(['b', 'a', 'c']);
    expect(index.find('unemploy', 1).map((match) => match.id)).to.deep.equal(['b']);
    expect(index.find('unemploymnet', 3).map((match) => match.id)).to.include('a');
    expect(index.find('survey', 3).map((match) => match.id)).to.deep.equal(['a']);
    expect(index.find('rainfall', 3)).to.deep.equal([]);
    expect(index.size).to.equal(3);
    expect(index.entry('a')).to.deep.equal({ id: 'a', title: 'Unemployment rate, total', text: 'Labour force survey', group: undefined, data: undefined });
  });

  it('searches the recorded LABSTAT series lists alike in the heap and in a database file (moved there at the start or midway), and gives each series back as read', async () => {
    const lists = { ce: 'labstat-ce-series-first-999.tsv', cu: 'labstat-cu-series-first-100.tsv', ln: 'labstat-ln-series-first-6.tsv' };
    async function* entries(): AsyncGenerator<IndexedEntry> {
      for (const [survey, file] of Object.entries(lists)) {
        for (const found of readSeriesList(recording('bls', file), survey)) yield { id: found.id, title: found.title, group: survey, data: pack(found) };
      }
    }
    // 1,105 series: below STORED_FROM they stay in the heap; from 500 or 1,050 the entries held so far move to the database on the way.
    for (const storedFrom of [STORED_FROM, 1050, 500, 0]) {
      const index = new CatalogueIndex(
        new Map([
          ['CES0500000003', 3],
          ['CUUR0000SA0', 3],
        ]),
        { storedFrom },
      );
      index.nameGroups(CATALOGUE_SURVEYS);
      await index.addAll(entries());
      const ids = (query: string) => index.find(query, 3).map((match) => match.id);
      expect(index.isStored).to.equal(storedFrom <= 1105);
      expect(index.size).to.equal(1105);
      expect(ids('average hourly earnings of all employees')).to.deep.equal(['CES0500000003', 'CES1011330003', 'CES2000000003']);
      expect(ids('consumer price index all items')).to.deep.equal(['CUSR0000SA0', 'CUSR0000SA0L1', 'CUSR0000SA0L2']);
      expect(ids('labor force')).to.deep.equal(['LNS11000000', 'LNS11000000Q', 'LNS11000001']);
      expect(ids('employes')).to.deep.equal(['CES0500000003', 'CES1011330001', 'CES1011330010']);
      expect(unpack('CES0500000003', index.entry('CES0500000003')!.data!)).to.deep.equal(AVERAGE_HOURLY_EARNINGS);
    }
  });
});

describe('the catalogue store', () => {
  it('reads a catalogue once for concurrent calls, answers from it for its lifetime, then refreshes it in the background', async () => {
    let now = 0;
    const store = new CatalogueStore(1000, () => now);
    let reads = 0;
    const read = async () => `version ${++reads}`;
    expect(await Promise.all([store.get('k', read), store.get('k', read)])).to.deep.equal(['version 1', 'version 1']);
    now = 999;
    expect(await store.get('k', read)).to.equal('version 1');
    now = 1000;
    // Old enough: the old catalogue answers at once while the new one is read.
    expect(await store.get('k', read)).to.equal('version 1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await store.get('k', read)).to.equal('version 2');
    expect(reads).to.equal(2);
  });

  it('keeps the old catalogue when a refresh fails, and fails the calls that have none', async () => {
    let now = 0;
    const store = new CatalogueStore(10, () => now);
    await store.get('k', async () => 'old');
    now = 20;
    expect(await store.get('k', () => Promise.reject(new Error('down')))).to.equal('old');
    await new Promise((resolve) => setImmediate(resolve));
    // Still old: the next call answers with it and starts another read, whose catalogue answers after.
    expect(await store.get('k', async () => 'new')).to.equal('old');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await store.get('k', async () => 'newer')).to.equal('new');
    let error: unknown;
    await store.get('other', () => Promise.reject(new Error('down'))).catch((caught: unknown) => (error = caught));
    expect((error as Error).message).to.equal('down');
    expect(store.holds('other')).to.equal(false);
  });
});

/** A structure's code → label map for one dimension. */
const labelsIn = (structure: Structure) => (id: string) => structure.dimensions.find((dimension) => dimension.id === id)!.codes;

describe('catalogue readers on real answers', () => {
  it('BLS: reads the recorded ce.series excerpt line by line, padded ids trimmed', () => {
    const series = [...readSeriesList(recording('bls', 'labstat-ce-series-first-999.tsv'), 'ce')];
    expect(series).to.have.length(999);
    expect(series.find((found) => found.id === 'CES0500000003')).to.deep.equal(AVERAGE_HOURLY_EARNINGS);
  });

  it('BLS: reads a series list piece by piece as it streams just as whole, wherever the pieces are cut', () => {
    const text = recording('bls', 'labstat-ce-series-first-999.tsv');
    const whole = [...readSeriesList(text, 'ce')];
    for (const size of [1, 7, 96, 997, 65_536]) {
      const reader = new SeriesListReader('ce');
      const series = [...piecesOf(text, size).flatMap((piece) => [...reader.read(piece)]), ...reader.end()];
      expect(series, `pieces of ${size} characters`).to.deep.equal(whole);
    }
    // Without its last line end, the last series comes with the end.
    const reader = new SeriesListReader('ce');
    expect([[...reader.read(text.trimEnd())].length, [...reader.end()].map((found) => found.id)]).to.deep.equal([998, ['CES2023839002']]);
  });

  it('BLS: reads the recorded ln.series excerpt, whose columns differ, and its quarterly series', () => {
    const series = [...readSeriesList(recording('bls', 'labstat-ln-series-first-6.tsv'), 'ln')];
    expect(series.map((found) => [found.id, found.frequency])).to.deep.equal([
      ['LNS11000000', 'monthly'],
      ['LNS11000000Q', 'quarterly'],
      ['LNS11000001', 'monthly'],
      ['LNS11000001Q', 'quarterly'],
      ['LNS11000002', 'monthly'],
      ['LNS11000002Q', 'quarterly'],
    ]);
  });

  it("OECD: reads the recorded availability for the United Kingdom's quarterly KEI and builds a key for one measure", () => {
    const available = readAvailability(JSON.parse(recording('oecd', 'availability-v2-kei-gbr-q.json')));
    expect([...available.keys()]).to.deep.equal(['REF_AREA', 'FREQ', 'MEASURE', 'UNIT_MEASURE', 'ACTIVITY', 'ADJUSTMENT', 'TRANSFORMATION']);
    expect(available.get('ADJUSTMENT')).to.deep.equal(['_Z', 'Y']);
    // The dimension order of DSD_KEI@DF_KEI, as its recorded CSV answers give it.
    const structure: Structure = {
      dimensions: ['REF_AREA', 'FREQ', 'MEASURE', 'UNIT_MEASURE', 'ACTIVITY', 'ADJUSTMENT', 'TRANSFORMATION'].map((id) => ({ id, codes: new Map() })),
    };
    // Several activities, adjustments and transformations have data for the country: left open for the data answer's totals.
    expect(keyCodes(structure, available, 'GBR', { dimension: 'MEASURE', code: 'IRLT' })).to.deep.equal({ REF_AREA: 'GBR', FREQ: 'Q', MEASURE: 'IRLT' });
  });

  it('OECD: reads the recorded availability of the KEI for every area: Germany and Japan have data, consumer prices and long-term interest rates among the measures', () => {
    const available = readAvailability(JSON.parse(recording('oecd', 'availability-v2-kei-all-areas.json')));
    // 55 areas: countries and aggregates such as EA20, G20 and OECD.
    expect(available.get('REF_AREA')!.length).to.equal(55);
    expect(['DEU', 'JPN', 'EA20', 'XYZ'].map((area) => available.get('REF_AREA')!.includes(area))).to.deep.equal([true, true, true, false]);
    expect(['CP', 'IRLT', 'IR3TIB'].map((measure) => available.get('MEASURE')!.includes(measure))).to.deep.equal([true, true, true]);
    expect(available.get('FREQ')).to.deep.equal(['A', 'M', 'Q']);
  });

  it('OECD: reads the recorded dataflow list (SDMX-ML), English names and descriptions without markup, and finds a dataflow by its name', async () => {
    const flows = readDataflows(recording('oecd', 'dataflow-list-oecd-cfe-eds-excerpt.xml'));
    expect(flows.map(({ agency, id, version, name }) => [agency, id, version, name])).to.deep.equal([
      ['OECD.CFE.EDS', 'DSD_FUA_CLIM@DF_CLIM_PROJ', '1.4', 'Climate projections by scenario, 2030–2060 – Cities and FUAs'],
      ['OECD.CFE.EDS', 'DSD_REG_DEMO@DF_POP_BROAD', '2.0', 'Population by broad age groups - Regions'],
      ['OECD.CFE.EDS', 'DSD_REG_ECO@DF_GDP', '2.4', 'Gross domestic product - Regions'],
      ['OECD.CFE.EDS', 'DSD_REG_LAB@DF_RATES', '2.0', 'Labour indicators rates - Regions'],
    ]);
    expect(flows[2]!.description?.startsWith('This dataset provides indicators on gross domestic product (GDP) and GDP per capita')).to.equal(true);
    expect(flows.every((flow) => !/[<>]/.test(flow.description ?? ''))).to.equal(true);
    const index = new CatalogueIndex();
    await index.addAll(flows.map((flow) => ({ id: refOf(flow), title: flow.name, text: flow.description })));
    expect(index.find('gross domestic product by region', 1).map((match) => match.id)).to.deep.equal(['OECD.CFE.EDS,DSD_REG_ECO@DF_GDP,2.4']);
    expect(index.find('population by age', 1).map((match) => match.id)).to.deep.equal(['OECD.CFE.EDS,DSD_REG_DEMO@DF_POP_BROAD,2.0']);
  });

  it('OECD: a dataflow is found by any word of its description, and by the titles of the much-used series it holds', async () => {
    // Every Dataflow element recorded: the four of the list excerpt, and those of the structure answers (KEI, financial market, labour, prices).
    const messages = readdirSync(recordingsFolder('oecd')).filter((file) => file.endsWith('.xml'));
    const flows = [...new Map(messages.flatMap((file) => readDataflows(recording('oecd', file))).map((flow) => [refOf(flow), flow])).values()];
    expect(flows.map((flow) => flow.id).sort()).to.deep.equal([
      'DSD_FUA_CLIM@DF_CLIM_PROJ',
      'DSD_KEI@DF_KEI',
      'DSD_LFS@DF_IALFS_INDIC',
      'DSD_PRICES@DF_PRICES_ALL',
      'DSD_REG_DEMO@DF_POP_BROAD',
      'DSD_REG_ECO@DF_GDP',
      'DSD_REG_LAB@DF_RATES',
      'DSD_STES@DF_FINMARK',
    ]);
    const kei = flows.find((flow) => flow.id === 'DSD_KEI@DF_KEI')!;
    // KEI names its interest rates only after the first 400 characters of its description.
    expect([kei.description!.indexOf('interest rates') > 400, kei.name]).to.deep.equal([true, 'Key short-term economic indicators']);
    const index = await dataflowIndex(flows, PRESET_WORDS);
    expect(index.find('interest', 1).map((match) => match.id)).to.deep.equal(['OECD.SDD.STES,DSD_KEI@DF_KEI,4.0']);
    // "interbank" is in no name or description: it is in the title of KEI's short-term rate preset.
    expect(index.find('interbank', 1).map((match) => match.id)).to.deep.equal(['OECD.SDD.STES,DSD_KEI@DF_KEI,4.0']);
    expect((await dataflowIndex(flows)).find('interbank', 1)).to.deep.equal([]);
  });

  it("OECD: reads the recorded structure of the infra-annual labour statistics: the dimensions in key order, the codes' English labels", () => {
    const structure = readStructure(recording('oecd', 'structure-v1-lfs-ialfs-indic-references-all-excerpt.xml'));
    expect(structure.name).to.equal('Infra-annual labour statistics');
    // The same order as the dimension columns of the recorded data answer of this dataflow.
    expect(structure.dimensions.map((dimension) => dimension.id)).to.deep.equal([
      'REF_AREA',
      'MEASURE',
      'UNIT_MEASURE',
      'TRANSFORMATION',
      'ADJUSTMENT',
      'SEX',
      'AGE',
      'ACTIVITY',
      'FREQ',
    ]);
    const labels = labelsIn(structure);
    expect([labels('REF_AREA').get('DEU'), labels('MEASURE').get('UNE_LF'), labels('UNIT_MEASURE').get('PT_LF_SUB'), labels('FREQ').get('A')]).to.deep.equal([
      'Germany',
      'Unemployment rate',
      'Percentage of labour force in the same subgroup',
      'Annual',
    ]);
    expect(measureDimension(structure)?.codes.size).to.equal(30);
  });

  it('OECD: reads the recorded structure of the financial market dataflow (long-term interest rates): key order, labels, and no labels for the codelists left out', () => {
    const structure = readStructure(recording('oecd', 'structure-v1-stes-finmark-references-all-excerpt.xml'));
    expect(structure.name).to.equal('Financial market');
    // The same order as the dimension columns of the recorded data answer of this dataflow.
    expect(structure.dimensions.map((dimension) => dimension.id)).to.deep.equal([
      'REF_AREA',
      'FREQ',
      'MEASURE',
      'UNIT_MEASURE',
      'ACTIVITY',
      'ADJUSTMENT',
      'TRANSFORMATION',
      'TIME_HORIZ',
      'METHODOLOGY',
    ]);
    const labels = labelsIn(structure);
    expect([labels('REF_AREA').get('DEU'), labels('MEASURE').get('IRLT'), labels('FREQ').get('A'), labels('METHODOLOGY').get('N')]).to.deep.equal([
      'Germany',
      'Long-term interest rates',
      'Annual',
      'National',
    ]);
    // The excerpt keeps 4 of the measure codelist's 51 codes; the unit, activity, adjustment and transformation codelists were left out of it.
    expect([...measureDimension(structure)!.codes.keys()]).to.deep.equal(['IRLT', 'IR3TIB', 'IRSTCI', 'SHARE']);
    expect(['UNIT_MEASURE', 'ACTIVITY', 'ADJUSTMENT', 'TRANSFORMATION'].map((id) => labels(id).size)).to.deep.equal([0, 0, 0, 0]);
  });

  it('OECD: reads every recorded structure message piece by piece as it streams just as whole, wherever the pieces are cut', () => {
    const messages = readdirSync(recordingsFolder('oecd')).filter((file) => file.endsWith('.xml'));
    expect(messages.length).to.equal(7);
    for (const file of messages) {
      const body = recording('oecd', file);
      const whole = readStructureParts(body);
      for (const size of [1, 13, 4096]) {
        const reader = new StructureReader();
        for (const piece of piecesOf(body, size)) reader.write(piece);
        expect(reader.end(), `${file} in pieces of ${size}`).to.deep.equal(whole);
      }
    }
  });

  it('OECD: an answer that is not XML, or XML that is not a structure message, is a bad body saying which', () => {
    const failure = (body: string) => {
      try {
        readStructure(body);
      } catch (error) {
        return [(error as UpstreamError).kind, (error as Error).message];
      }
      return undefined;
    };
    expect(failure('{"errors":[{"code":404}]}')).to.deep.equal(['bad_body', 'oecd: the structure answer is not XML']);
    expect(failure('<?xml version="1.0"?><message:Error xmlns:message="urn:x"><message:ErrorMessage code="100"/></message:Error>')).to.deep.equal([
      'bad_body',
      'oecd: the structure answer is not an SDMX-ML structure message',
    ]);
    expect(failure('<message:Structure xmlns:message="urn:x"><message:Structures/></message:Structure>')).to.deep.equal([
      'bad_body',
      'oecd: the structure message holds no data structure',
    ]);
  });

  it('OECD: reads the recorded structure of the consumer price dataflow, asked as the connector asks (codelists cut to the codes the dataflow allows)', () => {
    const structure = readStructure(recording('oecd', 'structure-v1-prices-all-referencepartial-excerpt.xml'));
    expect(structure.name).to.equal('Consumer price indices (CPIs, HICPs), COICOP 1999');
    // The order of the recorded request for the United Kingdom's CPI, GBR.A.N.CPI.*._T.*.GY.
    expect(structure.dimensions.map((dimension) => dimension.id)).to.deep.equal([
      'REF_AREA',
      'FREQ',
      'METHODOLOGY',
      'MEASURE',
      'UNIT_MEASURE',
      'EXPENDITURE',
      'ADJUSTMENT',
      'TRANSFORMATION',
    ]);
    const labels = labelsIn(structure);
    expect([labels('REF_AREA').get('JPN'), labels('METHODOLOGY').get('N'), labels('EXPENDITURE').get('_T'), labels('TRANSFORMATION').get('GY')]).to.deep.equal([
      'Japan',
      'National',
      'Total',
      'Growth rate, over 1 year',
    ]);
    // The measure codelist of the answer is partial: the two codes this dataflow allows.
    expect([...measureDimension(structure)!.codes]).to.deep.equal([
      ['CPI', 'Consumer price index'],
      ['IT_W', 'Item weights'],
    ]);
  });

  it('OECD: consumer prices for Japan in the key indicators: the key from the recorded structure and the recorded availability over every area', () => {
    const structure = readStructure(recording('oecd', 'structure-v1-kei-referencepartial-excerpt.xml'));
    const available = readAvailability(JSON.parse(recording('oecd', 'availability-v2-kei-all-areas.json')));
    expect([structure.name, measureDimension(structure)!.codes.get('CP'), structure.dimensions[0]!.codes.get('JPN')]).to.deep.equal([
      'Key short-term economic indicators',
      'Consumer prices',
      'Japan',
    ]);
    // Monthly is preferred among A, M and Q; the unit, activity, adjustment and transformation have several codes with data: left open.
    expect(keyCodes(structure, available, 'JPN', { dimension: 'MEASURE', code: 'CP' })).to.deep.equal({ REF_AREA: 'JPN', FREQ: 'M', MEASURE: 'CP' });
  });

  it('Census: reads the recorded data.json excerpt, keeping only the time-series datasets, and finds housing starts and total population among them', async () => {
    const datasets = readDatasets(recording('census', 'data-json-catalogue-excerpt.json'));
    // County Business Patterns 1986 and the 2012 population projections are not time series: left out. So is the International
    // Database by single year of age and sex: its rows are per age and sex, with no totals to read as a series.
    expect(datasets.map(({ path, title }) => [path, title])).to.deep.equal([
      ['timeseries/eits/qss', 'Time Series Economic Indicators Time Series -: Quarterly Services Survey'],
      ['timeseries/eits/qtax', 'Time Series Economic Indicators Time Series: Quarterly Summary of State and Local Taxes'],
      ['timeseries/eits/resconst', 'Time Series Economic Indicators Time Series -: New Residential Construction'],
      ['timeseries/eits/ressales', 'Time Series Economic Indicators Time Series -: New Home Sales'],
      ['timeseries/idb/5year', 'Time Series International Database 5-Year Age Groups and Sex and Other Demographic Variables'],
      [
        'timeseries/intltrade/exports/naics',
        'Time Series International Trade: Monthly U.S. Exports by North American Industry Classification System (NAICS) Code',
      ],
      ['timeseries/poverty/saipe', 'Time Series Small Area Income and Poverty Estimates: State and County'],
    ]);
    expect(datasets.map((dataset) => dataset.temporal)).to.deep.equal([undefined, '1992/2025', undefined, undefined, '1950/2100', undefined, '2024/2024']);
    const index = new CatalogueIndex();
    await index.addAll(datasets.map((dataset) => ({ id: dataset.path, title: dataset.title, text: dataset.description })));
    // "housing starts" is asked as "new residential construction" too (synonyms); the International Database's description names "Total population".
    expect(index.find('housing starts', 1).map((match) => match.id)).to.deep.equal(['timeseries/eits/resconst']);
    // A search reads the variables of the three best: the International Database by five-year groups among them.
    expect(index.find('total population United States', 3).map((match) => match.id)).to.deep.equal([
      'timeseries/poverty/saipe',
      'timeseries/idb/5year',
      'timeseries/eits/qtax',
    ]);
  });

  it('Census: reads data.json piece by piece as it streams just as JSON.parse reads it whole, wherever the pieces are cut', () => {
    const text = recording('census', 'data-json-catalogue-excerpt.json');
    const parsed = (JSON.parse(text) as { dataset: unknown[] }).dataset.flatMap((entry) => datasetOf(entry) ?? []);
    expect(parsed).to.have.length(7);
    for (const size of [1, 7, 4096, 65_536]) {
      expect(readDatasets(...piecesOf(text, size)), `pieces of ${size} characters`).to.deep.equal(parsed);
    }
  });

  it('Census: an Economic Indicators answer gives each code combination once; a code a seriesId could not carry is left out', () => {
    const rows = [
      ['category_code', 'data_type_code', 'seasonally_adj', 'time', 'us'],
      ['STARTS', 'TOTAL', 'no', '2025-01', '1'],
      ['STARTS', 'TOTAL', 'no', '2025-02', '1'],
      ['ASTARTS', 'TOTAL', 'yes', '2025-01', '1'],
      ['STARTS', 'A&B', 'no', '2025-01', '1'],
      ['STARTS', '', 'no', '2025-01', '1'],
    ];
    expect(readIndicatorSeries(rows)).to.deep.equal([
      {
        name: 'cell_value',
        label: 'STARTS, TOTAL, not seasonally adjusted',
        predicates: { category_code: 'STARTS', data_type_code: 'TOTAL', seasonally_adj: 'no' },
      },
      {
        name: 'cell_value',
        label: 'ASTARTS, TOTAL, seasonally adjusted',
        predicates: { category_code: 'ASTARTS', data_type_code: 'TOTAL', seasonally_adj: 'yes' },
      },
    ]);
    expect(readIndicatorSeries(null)).to.deep.equal([]);
    expect(() => readIndicatorSeries([['cell_value', 'time']])).to.throw('census answered without the category_code, data_type_code, seasonally_adj columns');
  });

  it('Census: data.json sits beside the data folder; variables keep numbers only, labels without "!!"', () => {
    expect(catalogueAddress('https://api.census.gov/data')).to.deep.equal({ baseUrl: 'https://api.census.gov', path: '/data.json' });
    expect(
      readVariables(
        JSON.stringify({
          variables: {
            for: { label: "Census API FIPS 'for' clause", predicateType: 'fips-for', predicateOnly: true },
            NAME: { label: 'Geographic Area Name', predicateType: 'string' },
            B01001_001E: { label: 'Estimate!!Total:', concept: 'SEX BY AGE', predicateType: 'int' },
          },
        }),
      ),
    ).to.deep.equal([{ name: 'B01001_001E', label: 'Estimate Total', concept: 'SEX BY AGE' }]);
  });

  it("Census: a real variables.json (2019 ACS 1-year profiles) keeps its numeric variables, in pieces or whole, and leaves out 'for', 'in', 'ucgid', PUMA5 and GEO_ID", () => {
    const text = recording('census', 'variables-acs1-2019-profile-excerpt.json');
    const social = 'SELECTED SOCIAL CHARACTERISTICS IN THE UNITED STATES';
    const demographic = 'ACS DEMOGRAPHIC AND HOUSING ESTIMATES';
    const expected = [
      { name: 'DP02_0126E', label: 'Estimate ANCESTRY Total population Czech', concept: social },
      { name: 'DP05_0050PE', label: 'Percent RACE Total population One race Asian Vietnamese', concept: demographic },
      { name: 'DP04_0047E', label: 'Estimate HOUSING TENURE Occupied housing units Renter-occupied', concept: 'SELECTED HOUSING CHARACTERISTICS' },
      { name: 'DP02_0123E', label: 'Estimate ANCESTRY Total population', concept: social },
      { name: 'DP05_0001E', label: 'Estimate SEX AND AGE Total population', concept: demographic },
      { name: 'DP05_0002E', label: 'Estimate SEX AND AGE Total population Male', concept: demographic },
      { name: 'DP05_0003E', label: 'Estimate SEX AND AGE Total population Female', concept: demographic },
      { name: 'DP03_0002E', label: 'Estimate EMPLOYMENT STATUS Population 16 years and over In labor force', concept: 'SELECTED ECONOMIC CHARACTERISTICS' },
    ];
    expect(readVariables(text)).to.deep.equal(expected);
    for (const size of [1, 7, 4096]) expect(readVariables(...piecesOf(text, size)), `pieces of ${size} characters`).to.deep.equal(expected);
  });
});
