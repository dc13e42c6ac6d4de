/**
 * npm run eval:catalogues -- [--dataflows <file>] [--data-json <file>]: how well find_series picks
 * what it reads next from a catalogue, measured on whole catalogues (not in the repository):
 * - OECD (`--dataflows`, SDMX-ML as `sdmx.oecd.org/public/rest/dataflow/all/all/latest` answers it):
 *   the FLOWS_PER_SEARCH dataflows whose structures a search reads, with the index as the connector
 *   builds it (names, whole descriptions, the presets' titles, in a database file) and as it was
 *   built before run 39 (names and the first 400 characters of the descriptions, in the heap);
 * - Census (`--data-json`, as `api.census.gov/data.json` answers it): the DATASETS_PER_SEARCH
 *   time-series datasets whose variables a search reads.
 * For each labelled question (a topic as find_series asks it, the country taken out) it prints them
 * and whether one that holds the series asked for is among them. The labels are this project's
 * judgement; the catalogues are the sources'.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DATASETS_PER_SEARCH, datasetIndex, readDatasets } from '../../../src/connectors/census-catalogue.ts';
import { dataflowIndex, readDataflows, refOf } from '../../../src/connectors/oecd-catalogue.ts';
import { FLOWS_PER_SEARCH, PRESET_WORDS } from '../../../src/connectors/oecd.ts';
import { CatalogueIndex, type CatalogueEntry } from '../../../src/statistics/catalogue-index.ts';

/** A question and the ids (dataflow ids, dataset paths) of what answers it. */
type Labelled = ReadonlyArray<[string, string[]]>;

const CPI = ['DSD_PRICES@DF_PRICES_ALL', 'DSD_PRICES_COICOP2018@DF_PRICES_C2018_ALL', 'DSD_G20_PRICES@DF_G20_PRICES', 'DSD_KEI@DF_KEI'];
const RATES = ['DSD_KEI@DF_KEI', 'DSD_STES@DF_FINMARK'];
const OECD_QUESTIONS: Labelled = [
  ['consumer price index', CPI],
  ['inflation', CPI],
  ['long-term interest rates', RATES],
  ['short-term interest rates', RATES],
  ['government bond yields', RATES],
  ['unemployment rate', ['DSD_LFS@DF_IALFS_UNE_M', 'DSD_LFS@DF_IALFS_INDIC', 'DSD_KEI@DF_KEI']],
  ['employment rate', ['DSD_LFS@DF_IALFS_EMP_WAP_Q', 'DSD_LFS@DF_IALFS_INDIC']],
  ['labour force participation rate', ['DSD_LFS@DF_IALFS_LF_WAP_Q', 'DSD_LFS@DF_IALFS_INDIC']],
  ['quarterly gdp growth', ['DSD_NAMAIN1@DF_QNA_EXPENDITURE_GROWTH_OECD', 'DSD_NAMAIN1@DF_QNA_EXPENDITURE_GROWTH_G20']],
  ['house prices', ['DSD_AN_HOUSE_PRICES@DF_HOUSE_PRICES', 'DSD_RHPI@DF_RHPI_ALL', 'DSD_RHPI_TARGET@DF_RHPI_TARGET']],
  ['industrial production', ['DSD_STES@DF_INDSERV', 'DSD_KEI@DF_KEI']],
  ['retail trade', ['DSD_STES@DF_INDSERV', 'DSD_KEI@DF_KEI']],
  ['composite leading indicator', ['DSD_STES@DF_CLI']],
  ['business confidence', ['DSD_STES@DF_BTS', 'DSD_STES@DF_CLI', 'DSD_KEI@DF_KEI']],
  ['exchange rates', ['DSD_NAMAIN10@DF_TABLE4', 'DSD_STES@DF_FINMARK', 'DSD_KEI@DF_KEI']],
];

const eits = (survey: string) => `timeseries/eits/${survey}`;
const CENSUS_QUESTIONS: Labelled = [
  ['housing starts', [eits('resconst')]],
  ['new home sales', [eits('ressales')]],
  ['retail sales', [eits('marts'), eits('mrts'), eits('mrtsadv')]],
  ['total population', ['timeseries/idb/1year', 'timeseries/idb/5year']],
  ['poverty rate', ['timeseries/poverty/saipe', 'timeseries/poverty/saipe/schdist', 'timeseries/poverty/histpov2']],
  ['median household income', ['timeseries/poverty/saipe', 'timeseries/poverty/histpov2']],
  ['construction spending', [eits('vip')]],
  ['durable goods orders', [eits('advm3'), eits('m3')]],
  ['business applications', [eits('bfs')]],
  ['homeownership rate', [eits('hv')]],
  ['wholesale inventories', [eits('mwtsadv'), eits('mwts'), eits('mtis')]],
  ['trade balance goods and services', [eits('ftd'), eits('ftdadv')]],
  ['health insurance coverage', ['timeseries/healthins/sahie']],
  ['exports', ['timeseries/intltrade/exports/hs', 'timeseries/intltrade/exports/naics', 'timeseries/intltrade/exports/enduse', eits('ftd')]],
  ['manufacturers shipments', [eits('m3'), eits('advm3'), 'timeseries/asm/product', 'timeseries/asm/industry', 'timeseries/asm/state']],
  ['state and local tax revenue', [eits('qtax')]],
  ['firm births and deaths', ['timeseries/bds']],
];

/** An index in the heap, as the dataflows' was before run 39. */
async function heapIndex(entries: CatalogueEntry[]): Promise<CatalogueIndex> {
  const index = new CatalogueIndex();
  await index.addAll(entries);
  return index;
}

/** Asks every question of each way's index, and prints what each way found. */
function ask(questions: Labelled, ways: Record<string, CatalogueIndex>, read: number, idOf: (indexId: string) => string): void {
  const found = Object.fromEntries(Object.keys(ways).map((way) => [way, 0]));
  for (const [question, answers] of questions) {
    console.log(`"${question}"`);
    for (const [way, index] of Object.entries(ways)) {
      const best = index.find(question, read).map((match) => idOf(match.id));
      const hit = best.some((id) => answers.includes(id));
      if (hit) found[way]! += 1;
      console.log(`  ${way.padEnd(6)} ${hit ? 'found ' : 'missed'} ${best.join(', ')}`);
    }
  }
  console.log(
    `found among those read: ${Object.entries(found)
      .map(([way, count]) => `${way} ${count} of ${questions.length}`)
      .join(', ')}\n`,
  );
}

const { values } = parseArgs({ options: { dataflows: { type: 'string' }, 'data-json': { type: 'string' } } });
if (!values.dataflows && !values['data-json']) {
  console.error('usage: npm run eval:catalogues -- [--dataflows <OECD dataflow list, SDMX-ML>] [--data-json <Census data.json>]');
  process.exit(2);
}
if (values.dataflows) {
  const flows = readDataflows(readFileSync(values.dataflows, 'utf8'));
  console.log(
    `OECD: ${flows.length} dataflows (${flows.filter((flow) => flow.description).length} with a description); a search reads the best ${FLOWS_PER_SEARCH}`,
  );
  const ways = {
    now: await dataflowIndex(flows, PRESET_WORDS),
    before: await heapIndex(flows.map((flow) => ({ id: refOf(flow), title: flow.name, text: flow.description?.slice(0, 400) }))),
  };
  ask(OECD_QUESTIONS, ways, FLOWS_PER_SEARCH, (id) => id.split(',')[1]!);
}
if (values['data-json']) {
  const datasets = readDatasets(readFileSync(values['data-json'], 'utf8'));
  console.log(`Census: ${datasets.length} time-series datasets; a search reads the variables of the best ${DATASETS_PER_SEARCH}`);
  ask(CENSUS_QUESTIONS, { now: await datasetIndex(datasets) }, DATASETS_PER_SEARCH, (id) => id);
}
