/**
 * BLS Public Data API v2 (api.bls.gov/publicAPI/v2): one series per call with
 * `GET /timeseries/data/{id}?startyear&endyear` (the key, optional, raises the limits and adds the
 * catalog). Errors come back with HTTP 200: `status` other than REQUEST_SUCCEEDED, or a message
 * "Series does not exist". Values are strings ("-" = unavailable); rows are newest first. The API has
 * no search: find_series searches LABSTAT's series lists (./bls-catalogue.ts), with the much-used
 * series kept here weighing more; when the lists cannot be read, BLS is a failed source.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { blsCatalogue, CATALOGUE_SURVEYS, type CatalogueSeries } from './bls-catalogue.ts';
import { frequencyOfPeriod, valueOf, withinPeriod } from '../statistics/periods.ts';
import { formatSeriesId } from '../statistics/series-id.ts';
import {
  notApplicable,
  type Candidates,
  type FetchedSeries,
  type Frequency,
  type Observation,
  type SeriesFacts,
  type SeriesRequest,
  type SeriesSearch,
} from '../statistics/series.ts';
import { path } from '../upstream/path.ts';

export const SOURCE = 'bls' as const;
/** Years per request the API allows with a registration key, and without one. */
export const YEARS_PER_REQUEST = { withKey: 20, withoutKey: 10 } as const;

interface KnownSeries {
  id: string;
  title: string;
  units: string;
  frequency: Frequency;
  seasonalAdjustment: string;
  dataset: string;
}

/** Much-used series (ids from BLS's "Series ID Formats" help and its popular-series lists). */
export const KNOWN_SERIES: readonly KnownSeries[] = [
  {
    id: 'LNS14000000',
    title: 'Unemployment Rate (16 years and over), United States',
    units: 'Percent',
    frequency: 'monthly',
    seasonalAdjustment: 'Seasonally Adjusted',
    dataset: 'Current Population Survey (CPS)',
  },
  {
    id: 'CES0000000001',
    title: 'All Employees, Total Nonfarm (payroll employment), United States',
    units: 'Thousands of persons',
    frequency: 'monthly',
    seasonalAdjustment: 'Seasonally Adjusted',
    dataset: 'Current Employment Statistics (CES)',
  },
  {
    id: 'CUUR0000SA0',
    title: 'Consumer Price Index for All Urban Consumers (CPI-U): All items in U.S. city average (inflation)',
    units: 'Index 1982-1984=100',
    frequency: 'monthly',
    seasonalAdjustment: 'Not Seasonally Adjusted',
    dataset: 'Consumer Price Index (CU)',
  },
  {
    id: 'CUSR0000SA0',
    title: 'Consumer Price Index for All Urban Consumers (CPI-U): All items in U.S. city average, seasonally adjusted (inflation)',
    units: 'Index 1982-1984=100',
    frequency: 'monthly',
    seasonalAdjustment: 'Seasonally Adjusted',
    dataset: 'Consumer Price Index (CU)',
  },
  {
    id: 'CES0500000003',
    title: 'Average Hourly Earnings of All Employees, Total Private, United States',
    units: 'Dollars per hour',
    frequency: 'monthly',
    seasonalAdjustment: 'Seasonally Adjusted',
    dataset: 'Current Employment Statistics (CES)',
  },
  {
    id: 'LNS11300000',
    title: 'Labor Force Participation Rate, United States',
    units: 'Percent',
    frequency: 'monthly',
    seasonalAdjustment: 'Seasonally Adjusted',
    dataset: 'Current Population Survey (CPS)',
  },
  {
    id: 'APU0000701111',
    title: 'Flour, white, all purpose, per lb. (453.6 gm) in U.S. city average, average price',
    units: 'U.S. dollars',
    frequency: 'monthly',
    seasonalAdjustment: 'Not Seasonally Adjusted',
    dataset: 'Consumer Price Index Average Price Data (AP)',
  },
];

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

export const seriesUrl = (id: string) => `https://data.bls.gov/timeseries/${encodeURIComponent(id)}`;

/** A BLS period code and year → normalised period; annual averages (M13, Q05, S03) are not observations of the series' own frequency. */
export function periodOf(year: string, code: string): { period: string; date: string } | undefined {
  const number = Number(code.slice(1));
  if (code.startsWith('M') && number >= 1 && number <= 12) return { period: `${year}-${code.slice(1)}`, date: `${year}-${code.slice(1)}-01` };
  if (code.startsWith('Q') && number >= 1 && number <= 4)
    return { period: `${year}-Q${number}`, date: `${year}-${String((number - 1) * 3 + 1).padStart(2, '0')}-01` };
  if (code.startsWith('S') && (number === 1 || number === 2)) return { period: `${year}-S${number}`, date: `${year}-${number === 1 ? '01' : '07'}-01` };
  if (code === 'A01') return { period: year, date: `${year}-01-01` };
  return undefined;
}

export interface BlsSeries {
  id: string;
  title?: string;
  dataset?: string;
  geography?: string;
  observations: Observation[];
}

/** The answer's one series; status-200 errors become an UpstreamError with BLS's own messages. */
export function parseTimeseries(body: unknown, requestedId: string): BlsSeries {
  const answer = obj(body);
  const messages = (Array.isArray(answer.message) ? answer.message : []).filter((message): message is string => typeof message === 'string');
  if (answer.status !== 'REQUEST_SUCCEEDED') {
    throw new UpstreamError(
      SOURCE,
      'http_error',
      `${SOURCE} did not process the request (${String(answer.status)}): ${messages.join('; ') || 'no reason given'}`,
    );
  }
  const list = obj(answer.Results).series;
  const series = obj(Array.isArray(list) ? list[0] : undefined);
  const rows = Array.isArray(series.data) ? series.data.map(obj) : [];
  const unknown = messages.find((message) => /does not exist/i.test(message));
  if (unknown && rows.length === 0) throw new UpstreamError(SOURCE, 'http_error', `${SOURCE}: ${unknown}`);
  const catalog = obj(series.catalog);
  const observations = rows.flatMap((row) => {
    const period = periodOf(String(row.year), String(row.period));
    const value = valueOf(row.value);
    if (!period || value === undefined) return [];
    const notes = (Array.isArray(row.footnotes) ? row.footnotes : []).map((note) => text(obj(note).text)).filter(Boolean);
    return [notes.length > 0 ? { ...period, value, status: notes.join(' ').replace(/\.$/, '').toLowerCase() } : { ...period, value }];
  });
  return {
    id: text(series.seriesID) ?? requestedId,
    title: text(catalog.series_title),
    dataset: text(catalog.survey_name),
    geography: text(catalog.area),
    observations: withinPeriod(observations, undefined, undefined),
  };
}

function factsOf(known: KnownSeries): SeriesFacts {
  return {
    seriesId: formatSeriesId(SOURCE, known.id),
    title: known.title,
    units: known.units,
    frequency: known.frequency,
    seasonalAdjustment: known.seasonalAdjustment,
    geography: 'United States',
    countryCode: 'USA',
    dataset: known.dataset,
    url: seriesUrl(known.id),
  };
}

/** Much-used series weigh this much more than others of the same match. */
export const KNOWN_SERIES_BOOST = 2;
const boosts: ReadonlyMap<string, number> = new Map(KNOWN_SERIES.map((known) => [known.id, KNOWN_SERIES_BOOST]));

const SEASONAL: Record<string, string> = { S: 'Seasonally Adjusted', U: 'Not Seasonally Adjusted' };

/** A catalogue line → candidate facts; a much-used series keeps its units. */
export function factsOfCatalogue(series: CatalogueSeries): SeriesFacts {
  const known = KNOWN_SERIES.find((candidate) => candidate.id === series.id);
  const [start, end] = [series.begin, series.end].map((span) => (span ? periodOf(span[0], span[1])?.period : undefined));
  return {
    seriesId: formatSeriesId(SOURCE, series.id),
    title: series.title,
    units: known?.units,
    frequency: series.frequency,
    seasonalAdjustment: series.seasonal ? SEASONAL[series.seasonal] : undefined,
    geography: 'United States',
    countryCode: 'USA',
    dataset: CATALOGUE_SURVEYS[series.survey],
    start,
    end,
    url: seriesUrl(series.id),
  };
}

/** BLS covers the United States only: another named country gives no candidates (and reads no catalogue). */
export async function searchSeries(upstream: UpstreamClient, search: SeriesSearch): Promise<Candidates> {
  if (search.country && search.country.iso2 !== 'US') return notApplicable();
  const catalogue = await blsCatalogue(upstream, boosts);
  const matches = catalogue.index.find(search.topic, search.limit);
  return { candidates: matches.map((match) => factsOfCatalogue(catalogue.seriesOf(match.id)!)), retrievedAt: catalogue.retrievedAt };
}

/** Year windows the API accepts in one request, covering [start, end]. */
export function yearWindows(startYear: number, endYear: number, size: number): Array<[number, number]> {
  const windows: Array<[number, number]> = [];
  for (let from = startYear; from <= endYear; from += size) windows.push([from, Math.min(from + size - 1, endYear)]);
  return windows;
}

export async function getTimeseries(upstream: UpstreamClient, request: SeriesRequest): Promise<FetchedSeries> {
  const hasKey = upstream.source(SOURCE).key !== undefined;
  const thisYear = new Date().getUTCFullYear();
  // Without a period BLS answers its last few years; with one, the period is cut into windows it accepts.
  const windows: Array<[number | undefined, number | undefined]> =
    request.start || request.end
      ? yearWindows(
          Number(request.start?.slice(0, 4) ?? thisYear - 9),
          Number(request.end?.slice(0, 4) ?? thisYear),
          hasKey ? YEARS_PER_REQUEST.withKey : YEARS_PER_REQUEST.withoutKey,
        )
      : [[undefined, undefined]];
  const answers = await Promise.all(
    windows.map(([from, to]) =>
      // Each year-window is one query of BLS's daily quota (tools.yaml budget); a status-200 refusal is checked before caching.
      upstream.getJson(
        SOURCE,
        {
          path: path`/timeseries/data/${request.id}`,
          kind: 'query',
          searchParams: { startyear: from, endyear: to, catalog: hasKey ? 'true' : undefined },
          key: { query: 'registrationkey' },
        },
        (body) => void parseTimeseries(body, request.id),
      ),
    ),
  );
  const parts = answers.map((answer) => parseTimeseries(answer.body, request.id));
  const known = KNOWN_SERIES.find((series) => series.id === request.id);
  const first = parts[0]!;
  const facts = known ? factsOf(known) : { seriesId: formatSeriesId(SOURCE, request.id), title: request.id, url: seriesUrl(request.id) };
  return {
    series: {
      ...facts,
      title: first.title ?? facts.title,
      dataset: first.dataset ?? facts.dataset,
      geography: first.geography ?? facts.geography,
      frequency: facts.frequency ?? (first.observations[0] ? frequencyOfPeriod(first.observations[0].period) : undefined),
      observations: withinPeriod(
        parts.flatMap((part) => part.observations),
        request.start,
        request.end,
      ),
      notes: [],
    },
    retrievedAt: answers[0]!.retrievedAt,
  };
}
