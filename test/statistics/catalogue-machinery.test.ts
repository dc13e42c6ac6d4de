/**
 * find_series over the OECD and Census catalogues, partly on hand-made catalogue answers (no real
 * recording of OECD's whole dataflow list, nor of a Census time-series variables.json, has been
 * found: test/recordings/oecd/README.md, test/recordings/census/README.md). OECD's KEI structure,
 * its availability for the United Kingdom and the data are real answers, and Census's dataset list
 * is a real excerpt of data.json; the rows of New Residential Construction are hand-made. These
 * test the machinery in the recorded formats — the dataflow and variable search, the key built from
 * a structure and the real recorded availability, the seriesId get_series reads — not the ranking
 * over the real catalogues.
 */
import { expect } from 'chai';
import { describeOnEachEngine } from '../support/databases.ts';
import { expectCharged, expectNotCharged, own, recorded } from '../life/support.ts';
import type { Hit } from '../support/fake-upstream.ts';
import { statisticsHarness, text } from './support.ts';
import { fixture, recording } from '../connectors/recordings.ts';

const SDMX_ML = 'application/vnd.sdmx.structure+xml; version=2.1; charset=utf-8';
const ownXml = (file: string) => text(fixture('oecd', file), SDMX_ML);

describeOnEachEngine('find_series over hand-made OECD and Census catalogues (the machinery)', (engine) => {
  const stats = statisticsHarness(engine);
  const ids = (result: { answer: { body: { records: Array<{ id: string }> } } }) => result.answer.body.records.map((record) => record.id);

  it('OECD: the best dataflow by name, its structure, and the codes with data for the country make the key', async () => {
    stats.on('oecd', '/dataflow/all/all/latest', ownXml('hand-made-dataflows-three.xml'));
    // The real structure answer to this very request (references=all&detail=referencepartial).
    stats.on('oecd', '/dataflow/OECD.SDD.STES/DSD_KEI@DF_KEI/4.0', text(recording('oecd', 'structure-v1-kei-referencepartial-excerpt.xml'), SDMX_ML));
    // The real availability answer to this very request: the United Kingdom's codes with data, every frequency.
    stats.on('oecd', '/v2/availability/dataflow/OECD.SDD.STES/DSD_KEI@DF_KEI/4.0/GBR.*.*.*.*.*.*', recorded('oecd', 'availability-v2-kei-gbr.json'));
    const result = await stats.charged('find_series', { query: 'long-term interest rates United Kingdom', sources: ['oecd'], limit: 2 });
    // The two other dataflows' structures are not served: they are left out, the search still answers.
    expectCharged(result);
    // Annual, monthly and quarterly codes have data: monthly is preferred.
    expect(ids(result)).to.deep.equal(['oecd:DSD_KEI@DF_KEI?REF_AREA=GBR&FREQ=M&MEASURE=IRLT', 'oecd:DSD_KEI@DF_KEI?REF_AREA=GBR&FREQ=M&MEASURE=IR3TIB']);
    expect(result.answer.body.records[0].data).to.deep.equal({
      series_id: 'oecd:DSD_KEI@DF_KEI?REF_AREA=GBR&FREQ=M&MEASURE=IRLT',
      frequency: 'monthly',
      geography: 'United Kingdom',
      country_code: 'GBR',
      dataset: 'Key short-term economic indicators',
    });
    const structure = stats.hits('oecd', '/dataflow/OECD.SDD.STES/DSD_KEI@DF_KEI/4.0')[0]!;
    expect([structure.query.get('references'), structure.query.get('detail'), structure.headers.accept]).to.deep.equal([
      'all',
      'referencepartial',
      'application/vnd.sdmx.structure+xml; version=2.1',
    ]);
    // get_series reads the id found, on the real data answer for its key.
    stats.on(
      'oecd',
      '/data/OECD.SDD.STES,DSD_KEI@DF_KEI,4.0/GBR.M.IRLT....',
      text(recording('oecd', 'data-v1-kei-gbr-irlt-2023.csv'), 'application/vnd.sdmx.data+csv; charset=utf-8'),
    );
    const series = await stats.charged('get_series', { series_id: ids(result)[0], start: '2023-01', end: '2024-01' });
    expectCharged(series);
    expect([series.answer.body.records[0].data.series_id, series.answer.body.records[0].data.observation_count]).to.deep.equal([
      'oecd:DSD_KEI@DF_KEI?REF_AREA=GBR&FREQ=M&MEASURE=IRLT&UNIT_MEASURE=PA&ACTIVITY=_Z&ADJUSTMENT=_Z&TRANSFORMATION=_Z',
      13,
    ]);
  });

  it('Census: the best time-series datasets by title, then their numeric variables by label and concept', async () => {
    // The real dataset list (an excerpt of data.json); only SAIPE's variable list is served (hand-made).
    stats.fake.on('/census.json', recorded('census', 'data-json-catalogue-excerpt.json'));
    stats.on('census', '/timeseries/poverty/saipe/variables.json', own('census', 'hand-made-saipe-variables.json'));
    const result = await stats.charged('find_series', { query: 'poverty rate all ages', sources: ['census'], limit: 2 });
    expectCharged(result);
    expect(ids(result)).to.deep.equal(['census:timeseries/poverty/saipe/SAEPOVRTALL_PT', 'census:timeseries/poverty/saipe/SAEPOVALL_PT']);
    // The three best datasets' variable lists were asked for; the two that answer 404 are left out, the search still answers.
    const asked = stats.fake.hits.filter((hit) => hit.path.endsWith('/variables.json')).map((hit) => hit.path);
    expect(asked.sort()).to.deep.equal([
      '/census/timeseries/idb/5year/variables.json',
      '/census/timeseries/intltrade/exports/naics/variables.json',
      '/census/timeseries/poverty/saipe/variables.json',
    ]);
    expect(stats.fake.hitsOn('/census.json')[0]!.query.get('key')).to.equal('test-census-key');
  });

  it('Census: a dataset list cut short is a bad body: with no other source asked, a 502 that costs nothing', async () => {
    const catalogue = recording('census', 'data-json-catalogue-excerpt.json');
    stats.fake.on('/census.json', text(catalogue.slice(0, catalogue.length / 2), 'application/json'));
    const result = await stats.charged('find_series', { query: 'poverty rate all ages', sources: ['census'], limit: 2 });
    expectNotCharged(result, 502, 'upstream_error');
    expect(result.answer.body.error.message).to.equal(
      'no source answered: census answered something that is not whole JSON (Tokenizer ended in the middle of a token (state: STRING_DEFAULT))',
    );
  });

  it('Census: an Economic Indicators dataset offers the code combinations of its latest rows, and get_series asks for one of them', async () => {
    // The real dataset list; New Residential Construction's rows are hand-made, shaped as Census's developer page documents them.
    stats.fake.on('/census.json', recorded('census', 'data-json-catalogue-excerpt.json'));
    const rowsAsked = (hit: Hit) =>
      hit.query.get('get') === 'cell_value' ? own('census', 'hand-made-eits-resconst-starts-total.json') : own('census', 'hand-made-eits-resconst-codes.json');
    stats.on('census', '/timeseries/eits/resconst', rowsAsked);
    const result = await stats.charged('find_series', { query: 'housing starts', sources: ['census'], limit: 2 });
    expectCharged(result);
    // The codes are all the rows say of a series: "starts" matches STARTS, not ASTARTS (its annual rate).
    expect(ids(result)).to.deep.equal([
      'census:timeseries/eits/resconst/cell_value?category_code=STARTS&data_type_code=TOTAL&seasonally_adj=no',
      'census:timeseries/eits/resconst/cell_value?category_code=STARTS&data_type_code=SINGLE&seasonally_adj=no',
    ]);
    expect(result.answer.body.records[0].title).to.equal('New Residential Construction: STARTS, TOTAL, not seasonally adjusted, United States');
    // The codes came from the rows of the nation since the start of last year; the dataset's variable list was not read.
    const codesAsked = stats.hits('census', '/timeseries/eits/resconst')[0]!.query;
    expect([codesAsked.get('get'), codesAsked.get('for'), codesAsked.get('time')]).to.deep.equal([
      'category_code,data_type_code,seasonally_adj',
      'us:*',
      `from ${new Date().getUTCFullYear() - 1}`,
    ]);
    expect(stats.fake.hits.filter((hit) => hit.path.endsWith('/variables.json')).map((hit) => hit.path)).to.not.include(
      '/census/timeseries/eits/resconst/variables.json',
    );

    const series = await stats.charged('get_series', { series_id: ids(result)[0], start: '2025-01' });
    expectCharged(series);
    const data = series.answer.body.records[0].data;
    expect([data.series_id, data.observations]).to.deep.equal([
      'census:timeseries/eits/resconst/cell_value?category_code=STARTS&data_type_code=TOTAL&seasonally_adj=no',
      [
        { period: '2025-01', date: '2025-01-01', value: 101.5 },
        { period: '2025-02', date: '2025-02-01', value: 104.2 },
        { period: '2025-03', date: '2025-03-01', value: 124.9 },
      ],
    ]);
    const dataAsked = stats.hits('census', '/timeseries/eits/resconst').at(-1)!.query;
    expect(['get', 'category_code', 'data_type_code', 'seasonally_adj', 'for', 'time'].map((name) => dataAsked.get(name))).to.deep.equal([
      'cell_value',
      'STARTS',
      'TOTAL',
      'no',
      'us:*',
      'from 2025',
    ]);
  });

  it('Census: "total population United States" reads the International Database by five-year groups, and get_series asks it for the United States by GENC code and years by YR', async () => {
    // The real dataset list; the International Database's variable list and rows are hand-made, shaped as Census's developer
    // page for it documents its calls (`for=genc standard countries and areas:…`, `YR=2023:2033`).
    stats.fake.on('/census.json', recorded('census', 'data-json-catalogue-excerpt.json'));
    stats.on('census', '/timeseries/idb/5year/variables.json', own('census', 'hand-made-idb-5year-variables.json'));
    const result = await stats.charged('find_series', { query: 'total population United States', sources: ['census'], limit: 2 });
    expectCharged(result);
    expect(ids(result)[0]).to.equal('census:timeseries/idb/5year/POP');
    expect(result.answer.body.records[0].title).to.equal('Total population, United States');
    // Its single-year dataset (a row per age and sex) is not searched: its list was never asked for.
    expect(stats.fake.hits.filter((hit) => hit.path.endsWith('/variables.json')).map((hit) => hit.path)).to.not.include(
      '/census/timeseries/idb/1year/variables.json',
    );

    // Its geography levels: its countries, no `us`.
    stats.on('census', '/timeseries/idb/5year/geography.json', own('census', 'hand-made-idb-5year-geography.json'));
    stats.on('census', '/timeseries/idb/5year', own('census', 'hand-made-idb-5year-pop-us.json'));
    const series = await stats.charged('get_series', { series_id: ids(result)[0], start: '2021', end: '2023' });
    expectCharged(series);
    expect(series.answer.body.records[0].data.observations).to.deep.equal([
      { period: '2021', date: '2021-01-01', value: 331900000 },
      { period: '2022', date: '2022-01-01', value: 333300000 },
      { period: '2023', date: '2023-01-01', value: 334914895 },
    ]);
    await stats.charged('get_series', { series_id: ids(result)[0] });
    const [ranged, whole] = stats.hits('census', '/timeseries/idb/5year').map((hit) => hit.query);
    expect([ranged, whole].map((query) => ['get', 'for', 'YR', 'time'].map((name) => query!.get(name)))).to.deep.equal([
      ['NAME,POP', 'genc standard countries and areas:US', '2021:2023', null],
      // Without an end, the years stop at this one: the database's later years are projections.
      ['NAME,POP', 'genc standard countries and areas:US', `1950:${new Date().getUTCFullYear()}`, null],
    ]);
    const state = await stats.charged('get_series', { series_id: 'census:timeseries/idb/5year/POP?state=06' });
    expectNotCharged(state, 400, 'invalid_input');
    expect(state.answer.body.error.message).to.equal(
      'series_id: census:timeseries/idb/5year has no state level (its levels: genc standard countries and areas); ask for its series without state or county',
    );
    expect(stats.hits('census', '/timeseries/idb/5year')).to.have.length(2);
  });

  it('Census: a dataset is asked as its own variables and geography levels say: without NAME or `for` when it has neither', async () => {
    // A hand-made dataset whose rows are national already: no NAME variable, no geography level.
    const dataset = '/timeseries/hand-made/national';
    stats.on('census', `${dataset}/variables.json`, {
      body: JSON.stringify({ variables: { time: { label: 'Time', predicateType: 'datetime' }, VALUE: { label: 'Value', predicateType: 'int' } } }),
      contentType: 'application/json',
    });
    stats.on('census', `${dataset}/geography.json`, { body: '{"fips":[]}', contentType: 'application/json' });
    stats.on('census', dataset, { body: '[["VALUE","time"],["5","2023"],["6","2024"]]', contentType: 'application/json' });
    const series = await stats.charged('get_series', { series_id: 'census:timeseries/hand-made/national/VALUE', start: '2023' });
    expectCharged(series);
    const data = series.answer.body.records[0].data;
    expect([data.geography, data.observations.map((observation: { value: number }) => observation.value)]).to.deep.equal(['United States', [5, 6]]);
    const asked = stats.hits('census', dataset)[0]!.query;
    expect(['get', 'for', 'time'].map((name) => asked.get(name))).to.deep.equal(['VALUE', null, 'from 2023']);
  });

  it('Census: an Economic Indicators id without its three codes is a 400 naming series_id, unsent and at no cost: its rows would mix every series', async () => {
    const result = await stats.charged('get_series', { series_id: 'census:timeseries/eits/resconst/cell_value?category_code=STARTS' });
    expectNotCharged(result, 400, 'invalid_input');
    expect(result.answer.body.error.message).to.equal(
      'series_id: an Economic Indicators series is read for the United States and named by category_code, data_type_code, seasonally_adj, ' +
        'e.g. census:timeseries/eits/resconst/cell_value?category_code=STARTS&data_type_code=TOTAL&seasonally_adj=yes; census:timeseries/eits/resconst/cell_value has no data_type_code, seasonally_adj',
    );
    const state = await stats.charged('get_series', {
      series_id: 'census:timeseries/eits/resconst/cell_value?category_code=STARTS&data_type_code=TOTAL&seasonally_adj=no&state=06',
    });
    expectNotCharged(state, 400, 'invalid_input');
    expect(state.answer.body.error.message).to.match(/; census:timeseries\/eits\/resconst\/cell_value names a state$/);
    const noVariable = await stats.charged('get_series', { series_id: 'census:SAEPOVRTALL_PT' });
    expectNotCharged(noVariable, 400, 'invalid_input');
    expect(noVariable.answer.body.error.message).to.equal(
      'series_id: a census id is <dataset path>/<variable>, e.g. census:timeseries/poverty/saipe/SAEPOVRTALL_PT; got census:SAEPOVRTALL_PT',
    );
    expect(stats.fake.hits.filter((hit) => hit.path.startsWith('/census'))).to.deep.equal([]);
  });
});
