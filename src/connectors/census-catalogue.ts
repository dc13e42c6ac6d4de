/**
 * The Census Bureau's catalogue: the dataset list `api.census.gov/data.json` (DCAT: every dataset
 * with `c_dataset` path parts, `c_vintage`, `c_isTimeseries`, title and description) and each
 * dataset's `variables.json` (every variable with its label, concept and predicate type). Only the
 * time-series datasets are indexed: get_series reads a variable across years with `time=`, which
 * only they take. A search reads the variables of the few best-matching datasets (each list is
 * kept once read; a list that cannot be read is left out) and ranks their variables by label, concept
 * and the dataset's title.
 *
 * The Economic Indicators datasets (`timeseries/eits/…`) are different: every series of a survey is
 * the one variable `cell_value`, in rows told apart by `category_code`, `data_type_code` and
 * `seasonally_adj` (New Residential Construction: STARTS, TOTAL, yes). Their variable list names no
 * series, and the API gives no list of the codes; the rows of the latest months do name them. So
 * such a dataset's series are the code combinations of its rows since the start of last year, each
 * a `cell_value` with those three codes as predicates.
 *
 * How get_series asks a dataset for its rows is read from the dataset too: the levels of its
 * `geography.json` (`us`, or the International Database's `genc standard countries and areas`, or
 * none for a dataset whose rows are national already) and the time variable its `variables.json`
 * names (`time`, or the International Database's `YR`). The International Database's single-year
 * dataset has a row per age and sex and no totals, so its variables are no series: only the
 * five-year dataset's (a row per country and year: total population, birth and death rates, …) are
 * searched.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { CatalogueIndex, indexOf, type Match } from '../statistics/catalogue-index.ts';
import { catalogue } from '../statistics/catalogues.ts';
import { formatSeriesId } from '../statistics/series-id.ts';
import { JsonItems, readJsonItems } from './json-items.ts';

const SOURCE = 'census' as const;
/** data.json lists every dataset of every vintage: larger than a data answer. */
export const CATALOGUE_MAX_BYTES = 64 * 1024 * 1024;
/** Datasets whose variables are read for one search. */
export const DATASETS_PER_SEARCH = 3;

export interface CensusDataset {
  /** The dataset path under /data (`timeseries/poverty/saipe`). */
  path: string;
  title: string;
  temporal?: string;
}

export interface DatasetList {
  index: CatalogueIndex;
  datasets: Map<string, CensusDataset>;
  retrievedAt: string;
}

export interface CensusVariable {
  name: string;
  label: string;
  concept?: string;
  /** Predicates that pick the variable's series out of the dataset's rows (Economic Indicators only). */
  predicates?: IndicatorPredicates;
}

/** What names one series of an Economic Indicators dataset, in the order of its seriesId. */
export const INDICATOR_PREDICATES = ['category_code', 'data_type_code', 'seasonally_adj'] as const;
export type IndicatorPredicates = Record<(typeof INDICATOR_PREDICATES)[number], string>;

/** `timeseries/eits/<survey>`: a dataset whose series are told apart by INDICATOR_PREDICATES. */
export const isIndicatorDataset = (path: string) => path.startsWith('timeseries/eits/');

/** Time-series datasets whose rows are not one per place and period, so none of their variables is a series. */
const NOT_SERIES_DATASETS = new Set(['timeseries/idb/1year']);

/** An indicator series in words: `STARTS, TOTAL, seasonally adjusted`. */
export function indicatorLabel(predicates: IndicatorPredicates): string {
  const adjusted =
    predicates.seasonally_adj === 'yes' ? 'seasonally adjusted' : predicates.seasonally_adj === 'no' ? 'not seasonally adjusted' : predicates.seasonally_adj;
  return `${predicates.category_code}, ${predicates.data_type_code}, ${adjusted}`;
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** The catalogue's address: `data.json` beside the `data` folder of the base URL (`https://api.census.gov/data` → `https://api.census.gov` + `/data.json`). */
export function catalogueAddress(baseUrl: string): { baseUrl: string; path: string } {
  const slash = baseUrl.lastIndexOf('/');
  return { baseUrl: baseUrl.slice(0, slash), path: `/${baseUrl.slice(slash + 1)}.json` };
}

export type CatalogueDataset = CensusDataset & { description?: string };

/** One dataset of data.json, if it is a time series with series to search (one without path parts or title is skipped). */
export function datasetOf(entry: unknown): CatalogueDataset | undefined {
  const dataset = obj(entry);
  const parts = Array.isArray(dataset.c_dataset) ? dataset.c_dataset.filter((part): part is string => typeof part === 'string') : [];
  const title = text(dataset.title);
  if (dataset.c_isTimeseries !== true || parts.length === 0 || !title) return undefined;
  const vintage = dataset.c_vintage;
  const path = [...(typeof vintage === 'number' || typeof vintage === 'string' ? [String(vintage)] : []), ...parts].join('/');
  if (NOT_SERIES_DATASETS.has(path)) return undefined;
  return { path, title, temporal: text(dataset.temporal), description: text(dataset.description)?.slice(0, 400) };
}

/** Geography, time and the International Database's year, age and sex: predicates, not series. */
const NOT_SERIES = new Set(['for', 'in', 'ucgid', 'time', 'NAME', 'GEO_ID', 'GEONAME', 'YR', 'AGE', 'SEX']);

/** One entry of variables.json, if it holds numbers (geography, time and predicate-only ones left out). */
export function variableOf(name: string, entry: unknown): CensusVariable | undefined {
  const variable = obj(entry);
  const label = text(variable.label);
  if (NOT_SERIES.has(name) || variable.predicateOnly === true || !label) return undefined;
  if (!['int', 'float'].includes(String(variable.predicateType))) return undefined;
  return { name, label: label.replace(/!!/g, ' ').replace(/:(?=\s|$)/g, ''), concept: text(variable.concept) };
}

/** What a dataset's variables.json says: its series (the variables that hold numbers) and the names of all its variables. */
export interface DatasetVariables {
  series: CensusVariable[];
  names: ReadonlySet<string>;
}

/** Where a catalogue answer's entries are (a path of JsonItems), and what one of them gives. */
interface Shape<T> {
  path: string;
  entryOf: (entry: unknown, key: string | number | undefined) => T | undefined;
}
const DATASETS: Shape<CatalogueDataset> = { path: '$.dataset.*', entryOf: (entry) => datasetOf(entry) };
const VARIABLES: Shape<{ name: string; series?: CensusVariable }> = {
  path: '$.variables.*',
  entryOf: (entry, name) => ({ name: String(name), series: variableOf(String(name), entry) }),
};

/** A taker of JsonItems values that keeps, in `entries`, what the shape makes of each. */
function collecting<T>(shape: Shape<T>, entries: T[]) {
  return (value: unknown, key: string | number | undefined) => {
    const entry = shape.entryOf(value, key);
    if (entry) entries.push(entry);
  };
}

/** data.json's text, in pieces → its time-series datasets (for tests; the server reads it as it streams). */
export function readDatasets(...pieces: string[]): CatalogueDataset[] {
  return readWhole(DATASETS, pieces);
}

/** variables.json's text, in pieces → the variables that hold numbers. */
export function readVariables(...pieces: string[]): CensusVariable[] {
  return readWhole(VARIABLES, pieces).flatMap((entry) => entry.series ?? []);
}

function readWhole<T>(shape: Shape<T>, pieces: string[]): T[] {
  const entries: T[] = [];
  const items = new JsonItems(shape.path, collecting(shape, entries));
  for (const piece of pieces) items.write(piece);
  items.end();
  return entries;
}

/** A catalogue answer's entries, read as it streams. */
async function readEntries<T>(upstream: UpstreamClient, shape: Shape<T>, address: { baseUrl?: string; path: string }) {
  const entries: T[] = [];
  const request = { ...address, key: { query: 'key' as const }, maxBodyBytes: CATALOGUE_MAX_BYTES };
  const read = await readJsonItems(upstream, SOURCE, request, shape.path, collecting(shape, entries));
  return { entries, retrievedAt: read.retrievedAt };
}

/** data.json's time-series datasets, read as it streams. */
export function readDatasetEntries(upstream: UpstreamClient): Promise<{ entries: CatalogueDataset[]; retrievedAt: string }> {
  return readEntries(upstream, DATASETS, catalogueAddress(upstream.source(SOURCE).baseUrl));
}

/** The datasets' index: each by its title, then its description. */
export async function datasetIndex(found: readonly CatalogueDataset[]): Promise<CatalogueIndex> {
  const index = new CatalogueIndex();
  await index.addAll(found.map((dataset) => ({ id: dataset.path, title: dataset.title, text: dataset.description })));
  return index;
}

export async function readDatasetList(upstream: UpstreamClient): Promise<DatasetList> {
  const { entries: found, retrievedAt } = await readDatasetEntries(upstream);
  if (found.length === 0) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE}: the dataset catalogue named no time-series dataset`);
  return {
    index: await datasetIndex(found),
    datasets: new Map(found.map((dataset) => [dataset.path, { path: dataset.path, title: dataset.title, temporal: dataset.temporal }])),
    retrievedAt,
  };
}

export function datasetList(upstream: UpstreamClient): Promise<DatasetList> {
  return catalogue(upstream, `${SOURCE}:datasets`, (shared) => readDatasetList(shared));
}

/** A dataset's variables, read once and kept. */
export function variablesOf(upstream: UpstreamClient, dataset: string): Promise<DatasetVariables> {
  return catalogue(upstream, `${SOURCE}:variables:${dataset}`, async (shared) => {
    const { entries } = await readEntries(shared, VARIABLES, { path: `/${dataset}/variables.json` });
    return { series: entries.flatMap((entry) => entry.series ?? []), names: new Set(entries.map((entry) => entry.name)) };
  });
}

/**
 * The names of a dataset's geography levels (`geography.json`: `{"fips": [{"name": "us", "geoLevelDisplay": "010", …}, …]}`),
 * read once and kept: `us`, `state`, `county`, or the International Database's `genc standard countries and areas`.
 */
export function geographyLevelsOf(upstream: UpstreamClient, dataset: string): Promise<string[]> {
  return catalogue(upstream, `${SOURCE}:geography:${dataset}`, async (shared) => {
    const answer = await shared.getJson(SOURCE, { path: `/${dataset}/geography.json`, key: { query: 'key' } });
    const levels = obj(answer.body).fips;
    return Array.isArray(levels) ? levels.flatMap((level) => text(obj(level).name) ?? []) : [];
  });
}

const SERIES_ID_CODE = /^[^&=?\s]+$/;

/** Rows `[header, …values]` of an indicator dataset → its distinct code combinations, in the order first met. */
export function readIndicatorSeries(body: unknown): CensusVariable[] {
  if (body === null) return []; // 204: no rows in the period asked
  if (!Array.isArray(body) || !Array.isArray(body[0])) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered something other than a table of rows`);
  const [header, ...rows] = body as unknown[][];
  const columns = INDICATOR_PREDICATES.map((name) => header!.indexOf(name));
  if (columns.some((column) => column < 0))
    throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without the ${INDICATOR_PREDICATES.join(', ')} columns`);
  const seen = new Map<string, CensusVariable>();
  for (const row of rows) {
    const codes = columns.map((column) => text(row[column]));
    // A code goes into a seriesId as a dimension's value: one that could not be read back from it is left out.
    if (codes.some((code) => code === undefined || !SERIES_ID_CODE.test(code))) continue;
    const predicates = Object.fromEntries(INDICATOR_PREDICATES.map((name, index) => [name, codes[index]!])) as IndicatorPredicates;
    const key = codes.join('/');
    if (!seen.has(key)) seen.set(key, { name: 'cell_value', label: indicatorLabel(predicates), predicates });
  }
  return [...seen.values()];
}

/** An indicator dataset's series: the code combinations of its rows for the nation since the start of last year, read once and kept. */
export function indicatorSeriesOf(upstream: UpstreamClient, dataset: string, now = new Date()): Promise<CensusVariable[]> {
  return catalogue(upstream, `${SOURCE}:indicators:${dataset}`, async (shared) => {
    const answer = await shared.getJson(SOURCE, {
      path: `/${dataset}`,
      searchParams: { get: INDICATOR_PREDICATES.join(','), for: 'us:*', time: `from ${now.getUTCFullYear() - 1}` },
      key: { query: 'key' },
      maxBodyBytes: CATALOGUE_MAX_BYTES,
    });
    return readIndicatorSeries(answer.body);
  });
}

/** A variable's seriesId: `census:<dataset path>/<VARIABLE>`, with an indicator's predicates. */
export const variableSeriesId = (dataset: string, variable: Pick<CensusVariable, 'name' | 'predicates'>): string =>
  formatSeriesId(SOURCE, `${dataset}/${variable.name}`, variable.predicates);

/** The variables of the best-matching datasets, ranked for the query: their seriesIds are the ids of the index (and of `boosts`). */
export async function searchVariables(
  upstream: UpstreamClient,
  topic: string,
  limit: number,
  boosts: ReadonlyMap<string, number>,
): Promise<{ matches: Array<Match & { dataset: CensusDataset; variable: CensusVariable }>; retrievedAt: string }> {
  const catalogue = await datasetList(upstream);
  const datasets = catalogue.index.find(topic, DATASETS_PER_SEARCH).map((match) => catalogue.datasets.get(match.id)!);
  // A dataset whose variable list cannot be read is left out; only when all fail is Census a failed source.
  const seriesOf = async (path: string) => (isIndicatorDataset(path) ? indicatorSeriesOf(upstream, path) : (await variablesOf(upstream, path)).series);
  const settled = await Promise.allSettled(datasets.map(async (dataset) => (await seriesOf(dataset.path)).map((variable) => ({ dataset, variable }))));
  const failure = settled.find((outcome) => outcome.status === 'rejected');
  if (failure && settled.every((outcome) => outcome.status === 'rejected')) throw failure.reason;
  const variables = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value : []));
  const byId = new Map(variables.map((entry) => [variableSeriesId(entry.dataset.path, entry.variable), entry]));
  const index = indexOf(
    [...byId].map(([id, { dataset, variable }]) => ({ id, title: variable.label, text: `${variable.concept ?? ''} ${dataset.title}` })),
    boosts,
  );
  return { matches: index.find(topic, limit).map((match) => ({ ...match, ...byId.get(match.id)! })), retrievedAt: catalogue.retrievedAt };
}
