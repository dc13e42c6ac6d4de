/**
 * npm run eval:dataflows -- --dataflows <file>: how well find_series's OECD search picks dataflows,
 * measured on a whole dataflow list (SDMX-ML, as `sdmx.oecd.org/public/rest/dataflow/all/all/latest`
 * answers it; not in the repository). For each labelled query (a topic as find_series asks it, the
 * country taken out) it prints the FLOWS_PER_SEARCH dataflows whose structures a search reads, and
 * whether one of the dataflows that answer the query is among them: with the index as the connector
 * builds it (names, whole descriptions, the presets' titles), and as it was built before run 38
 * (names and the first 400 characters of the descriptions).
 *
 * The labels are this project's judgement of which dataflows hold the series asked for; the list is
 * OECD's.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { dataflowIndex, readDataflows } from '../../../src/connectors/oecd-catalogue.ts';
import { FLOWS_PER_SEARCH, PRESET_WORDS } from '../../../src/connectors/oecd.ts';

/** A query and the dataflows (by id) that answer it. */
const LABELLED: ReadonlyArray<[string, string[]]> = [
  ['consumer price index', ['DSD_PRICES@DF_PRICES_ALL', 'DSD_PRICES_COICOP2018@DF_PRICES_C2018_ALL', 'DSD_G20_PRICES@DF_G20_PRICES', 'DSD_KEI@DF_KEI']],
  ['inflation', ['DSD_PRICES@DF_PRICES_ALL', 'DSD_PRICES_COICOP2018@DF_PRICES_C2018_ALL', 'DSD_G20_PRICES@DF_G20_PRICES', 'DSD_KEI@DF_KEI']],
  ['long-term interest rates', ['DSD_KEI@DF_KEI', 'DSD_STES@DF_FINMARK']],
  ['short-term interest rates', ['DSD_KEI@DF_KEI', 'DSD_STES@DF_FINMARK']],
  ['government bond yields', ['DSD_KEI@DF_KEI', 'DSD_STES@DF_FINMARK']],
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

const { values } = parseArgs({ options: { dataflows: { type: 'string' } } });
if (!values.dataflows) {
  console.error('usage: npm run eval:dataflows -- --dataflows <SDMX-ML dataflow list, as /dataflow/all/all/latest answers it>');
  process.exit(2);
}
const flows = readDataflows(readFileSync(values.dataflows, 'utf8'));
const ways = {
  now: await dataflowIndex(flows, PRESET_WORDS),
  before: await dataflowIndex(flows.map((flow) => ({ ...flow, description: flow.description?.slice(0, 400) }))),
};
console.log(`${flows.length} dataflows (${flows.filter((flow) => flow.description).length} with a description); a search reads the best ${FLOWS_PER_SEARCH}`);
const found = { now: 0, before: 0 };
for (const [query, answers] of LABELLED) {
  console.log(`"${query}"`);
  for (const way of ['now', 'before'] as const) {
    const best = ways[way].find(query, FLOWS_PER_SEARCH).map((match) => match.id.split(',')[1]!);
    const hit = best.some((id) => answers.includes(id));
    if (hit) found[way] += 1;
    console.log(`  ${way.padEnd(6)} ${hit ? 'found ' : 'missed'} ${best.join(', ')}`);
  }
}
console.log(`found among the dataflows read: now ${found.now} of ${LABELLED.length}, before ${found.before} of ${LABELLED.length}`);
