/**
 * US Census Bureau Data API (api.census.gov/data), its time-series datasets:
 * `GET /timeseries/poverty/saipe?get=NAME,SAEPOVRTALL_PT&for=us:*&time=from 2000 to 2020&key=…`.
 * The key is required since 2026-05-12; a missing or bad key answers an HTML page with status 200.
 * Answers are arrays of string arrays (header row first); ACS-style fill values such as -666666666
 * mean "no estimate". Ids are `census:<dataset path>/<variable>` with optional `?state=<FIPS>` and
 * `&county=<FIPS>`; an Economic Indicators series names its codes instead, sent as predicates:
 * `census:timeseries/eits/resconst/cell_value?category_code=STARTS&data_type_code=TOTAL&seasonally_adj=yes`
 * (`get=cell_value&category_code=STARTS&…&for=us:*`). A dataset's own variables and geography levels
 * say how it is asked: the International Database names the United States by its GENC code and years
 * by `YR` (`/timeseries/idb/5year?get=NAME,POP&YR=2000:2025&for=genc standard countries and areas:US`),
 * and a dataset without a NAME variable or a `us` level is asked without them. The API has no search: find_series searches
 * the dataset catalogue and the matching datasets' variables (./census-catalogue.ts), the series
 * listed here weighing more; when the catalogue cannot be read, Census is a failed source.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { ApiError } from '../errors.ts';
import { UpstreamError } from '../upstream/errors.ts';
import {
  INDICATOR_PREDICATES,
  indicatorLabel,
  geographyLevelsOf,
  isIndicatorDataset,
  searchVariables as searchCatalogue,
  variablesOf,
  variableSeriesId,
  type IndicatorPredicates,
} from './census-catalogue.ts';
import { observationsFrom, valueOf, withinPeriod } from '../statistics/periods.ts';
import { formatSeriesId } from '../statistics/series-id.ts';
import {
  notApplicable,
  type Candidates,
  type FetchedSeries,
  type Frequency,
  type SeriesFacts,
  type SeriesRequest,
  type SeriesSearch,
} from '../statistics/series.ts';

export const SOURCE = 'census' as const;

interface KnownSeries {
  dataset: string;
  variable: string;
  title: string;
  units: string;
  frequency: Frequency;
  datasetTitle: string;
}

/** Time series of the Census Bureau's Small Area Income and Poverty Estimates (SAIPE). */
export const KNOWN_SERIES: readonly KnownSeries[] = [
  {
    dataset: 'timeseries/poverty/saipe',
    variable: 'SAEPOVRTALL_PT',
    title: 'Poverty rate, all ages, United States',
    units: 'Percent',
    frequency: 'annual',
    datasetTitle: 'Small Area Income and Poverty Estimates (SAIPE)',
  },
  {
    dataset: 'timeseries/poverty/saipe',
    variable: 'SAEPOVALL_PT',
    title: 'People in poverty, all ages (poverty count), United States',
    units: 'Persons',
    frequency: 'annual',
    datasetTitle: 'Small Area Income and Poverty Estimates (SAIPE)',
  },
  {
    dataset: 'timeseries/poverty/saipe',
    variable: 'SAEMHI_PT',
    title: 'Median household income, United States',
    units: 'Dollars',
    frequency: 'annual',
    datasetTitle: 'Small Area Income and Poverty Estimates (SAIPE)',
  },
];

export const datasetUrl = (dataset: string) => `https://api.census.gov/data/${dataset}.html`;

/** `census:<dataset>/<VARIABLE>` → its parts (the variable is the last path segment). */
export function splitId(id: string): { dataset: string; variable: string } | undefined {
  const slash = id.lastIndexOf('/');
  return slash > 0 && slash < id.length - 1 ? { dataset: id.slice(0, slash), variable: id.slice(slash + 1) } : undefined;
}

/** Rows `[header, …values]` → the variable's values by year (in the column `timeColumn`), the area's name. */
export function parseTable(body: unknown, variable: string, timeColumnName = 'time') {
  if (body === null) return { name: undefined, observations: [] }; // 204: nothing matched
  if (!Array.isArray(body) || !Array.isArray(body[0])) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered something other than a table of rows`);
  const [header, ...rows] = body as string[][];
  const [valueColumn, timeColumn, nameColumn] = [header!.indexOf(variable), header!.indexOf(timeColumnName), header!.indexOf('NAME')];
  if (valueColumn < 0 || timeColumn < 0)
    throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without the ${valueColumn < 0 ? variable : timeColumnName} column`);
  return {
    name: nameColumn >= 0 ? rows[0]?.[nameColumn] : undefined,
    observations: observationsFrom(rows.map((row) => ({ period: String(row[timeColumn] ?? ''), value: valueOf(row[valueColumn]) }))),
  };
}

function factsOf(known: KnownSeries): SeriesFacts {
  return {
    seriesId: variableSeriesId(known.dataset, { name: known.variable }),
    title: known.title,
    units: known.units,
    frequency: known.frequency,
    geography: 'United States',
    countryCode: 'USA',
    dataset: known.datasetTitle,
    url: datasetUrl(known.dataset),
  };
}

/** Much-used series weigh this much more than others of the same match. */
export const KNOWN_SERIES_BOOST = 2;
const boosts: ReadonlyMap<string, number> = new Map(
  KNOWN_SERIES.map((known) => [variableSeriesId(known.dataset, { name: known.variable }), KNOWN_SERIES_BOOST]),
);

/** The Census Bureau covers the United States only: another named country gives no candidates (and reads no catalogue). */
export async function searchVariables(upstream: UpstreamClient, search: SeriesSearch): Promise<Candidates> {
  if (search.country && search.country.iso2 !== 'US') return notApplicable();
  const { matches, retrievedAt } = await searchCatalogue(upstream, search.topic, search.limit, boosts);
  return {
    candidates: matches.map(({ id, dataset, variable }) => {
      const known = KNOWN_SERIES.find((series) => series.dataset === dataset.path && series.variable === variable.name);
      if (known) return factsOf(known);
      return {
        seriesId: id,
        title: `${variable.predicates ? `${dataset.title.replace(/^.*:\s*/, '')}: ` : ''}${variable.label}, United States`,
        description: variable.concept,
        geography: 'United States',
        countryCode: 'USA',
        dataset: dataset.title,
        url: datasetUrl(dataset.path),
      };
    }),
    retrievedAt,
  };
}

/** The first year asked of a dataset whose years are `YR` (the International Database: its countries' base years are 1950 or later). */
export const YR_FIRST_YEAR = 1950;
/** The International Database's level of countries, in `for=`; this connector reads the United States (GENC US). */
const COUNTRIES_LEVEL = 'genc standard countries and areas';

/**
 * The `for`/`in` geography predicates of the id's dimensions: a county in a state, a state, or the nation. The nation is asked
 * as the dataset's geography levels say: `us`, the United States among the countries, or no `for` when it has neither (its rows
 * are national). Levels that could not be read: `us`.
 */
export function geographyOf(dimensions: Record<string, string>, levels?: readonly string[]): { for?: string; in?: string } {
  if (dimensions.county && dimensions.state) return { for: `county:${dimensions.county}`, in: `state:${dimensions.state}` };
  if (dimensions.state) return { for: `state:${dimensions.state}` };
  if (levels === undefined || levels.includes('us')) return { for: 'us:*' };
  return levels.includes(COUNTRIES_LEVEL) ? { for: `${COUNTRIES_LEVEL}:US` } : {};
}

/**
 * A Census id as get_series reads it: `<dataset path>/<variable>`, and for an Economic Indicators
 * dataset all three codes (or the rows of every series would come mixed) and the nation only. An
 * id it could never read is a 400 naming series_id, refused before anything is asked.
 */
export function checkSeriesId(request: Pick<SeriesRequest, 'id' | 'dimensions'>): { dataset: string; variable: string; indicator?: IndicatorPredicates } {
  const parts = splitId(request.id);
  if (!parts)
    throw new ApiError(
      'invalid_input',
      `series_id: a census id is <dataset path>/<variable>, e.g. census:timeseries/poverty/saipe/SAEPOVRTALL_PT; got census:${request.id}`,
    );
  if (!isIndicatorDataset(parts.dataset)) return parts;
  const missing = INDICATOR_PREDICATES.filter((name) => request.dimensions[name] === undefined);
  if (missing.length > 0 || request.dimensions.state !== undefined)
    throw new ApiError(
      'invalid_input',
      `series_id: an Economic Indicators series is read for the United States and named by ${INDICATOR_PREDICATES.join(', ')}, e.g. ` +
        `census:timeseries/eits/resconst/cell_value?category_code=STARTS&data_type_code=TOTAL&seasonally_adj=yes; ` +
        (missing.length > 0 ? `census:${request.id} has no ${missing.join(', ')}` : `census:${request.id} names a state`),
    );
  const indicator = Object.fromEntries(INDICATOR_PREDICATES.map((name) => [name, request.dimensions[name]!])) as IndicatorPredicates;
  return { ...parts, indicator };
}

/** How a dataset is asked for its rows: with NAME or not, its years in `time` or `YR`, and the levels of its geography. */
interface Asking {
  name: boolean;
  timeVariable: 'time' | 'YR';
  /** Undefined when they could not be read: `us`, `state` and `county` are then assumed, as most datasets have them. */
  levels?: readonly string[];
}

/**
 * What the dataset says of itself (its variables and geography levels, read once and kept: ./census-catalogue.ts); what could
 * not be read is taken to be the usual: a NAME variable, years in `time`. The Economic Indicators datasets are read for the
 * nation, without NAME.
 */
async function askingOf(upstream: UpstreamClient, dataset: string, indicator: IndicatorPredicates | undefined): Promise<Asking> {
  if (indicator) return { name: false, timeVariable: 'time' };
  const [names, levels] = await Promise.all([
    variablesOf(upstream, dataset).then(
      (variables) => variables.names,
      () => undefined,
    ),
    geographyLevelsOf(upstream, dataset).catch(() => undefined),
  ]);
  return { name: names?.has('NAME') ?? true, timeVariable: names?.has('YR') && !names.has('time') ? 'YR' : 'time', levels };
}

/** The years asked: `time=from … to …`, or `YR=…:…` (the International Database, whose years run to its projections in 2100: without an end, up to this one). */
function periodOf(timeVariable: Asking['timeVariable'], startYear: string | undefined, endYear: string | undefined): Record<string, string> {
  if (timeVariable === 'YR') return { YR: `${startYear ?? YR_FIRST_YEAR}:${endYear ?? new Date().getUTCFullYear()}` };
  return { time: `from ${startYear ?? '1900'}${endYear ? ` to ${endYear}` : ''}` };
}

export async function getTimeseries(upstream: UpstreamClient, request: SeriesRequest): Promise<FetchedSeries> {
  const { indicator, ...parts } = checkSeriesId(request);
  const asking = await askingOf(upstream, parts.dataset, indicator);
  const level = request.dimensions.county ? 'county' : request.dimensions.state ? 'state' : undefined;
  if (level && asking.levels && !asking.levels.includes(level))
    throw new ApiError(
      'invalid_input',
      `series_id: census:${parts.dataset} has no ${level} level (its levels: ${asking.levels.join(', ') || 'none'}); ask for its series without state or county`,
    );
  const geography = geographyOf(request.dimensions, asking.levels);
  const period = periodOf(asking.timeVariable, request.start?.slice(0, 4), request.end?.slice(0, 4));
  let answer;
  try {
    answer = await upstream.getJson(SOURCE, {
      path: `/${parts.dataset}`,
      searchParams: { get: asking.name ? `NAME,${parts.variable}` : parts.variable, ...indicator, for: geography.for, in: geography.in, ...period },
      key: { query: 'key' },
    });
  } catch (error) {
    if (error instanceof UpstreamError && error.kind === 'bad_body' && /HTML page/.test(error.message)) {
      throw new UpstreamError(
        SOURCE,
        'http_error',
        `${error.message}: the Census API answers so when its key is missing or not valid (check SOURCE_CENSUS_KEY)`,
      );
    }
    throw error;
  }
  const table = parseTable(answer.body, parts.variable, asking.timeVariable);
  const known = KNOWN_SERIES.find((series) => series.dataset === parts.dataset && series.variable === parts.variable);
  const title = indicator ? `${parts.dataset} ${indicatorLabel(indicator)}, United States` : parts.variable;
  const facts = known ? factsOf(known) : { seriesId: formatSeriesId(SOURCE, request.id), title, url: datasetUrl(parts.dataset) };
  const national = !request.dimensions.state;
  return {
    series: {
      ...facts,
      seriesId: formatSeriesId(SOURCE, request.id, indicator ?? { state: request.dimensions.state, county: request.dimensions.county }),
      title: national ? facts.title : `${facts.title.replace(/, United States$/, '')}, ${table.name ?? geography.for}`,
      geography: table.name ?? facts.geography ?? (national ? 'United States' : undefined),
      countryCode: 'USA',
      observations: withinPeriod(table.observations, request.start, request.end),
      notes: [],
    },
    retrievedAt: answer.retrievedAt,
  };
}
