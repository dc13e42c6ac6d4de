/**
 * World Bank Indicators API v2 (api.worldbank.org/v2): indicator data per country and the World
 * Development Indicators list (source 2), searched client-side since the API has no text search.
 * JSON must be asked for (`format=json`); answers are `[header, rows]`, rows newest first, missing
 * years present with `value: null`; an invalid code answers HTTP 200 with `[{"message":[…]}]`.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { countryOf } from '../statistics/countries.ts';
import { bestOfWhole } from '../statistics/catalogues.ts';
import { observationsFrom, withinPeriod } from '../statistics/periods.ts';
import { formatSeriesId } from '../statistics/series-id.ts';
import { optional, type Candidates, type FetchedSeries, type SeriesFacts, type SeriesRequest, type SeriesSearch } from '../statistics/series.ts';
import { path } from '../upstream/path.ts';

export const SOURCE = 'world-bank' as const;
/** World Development Indicators: the API's own source id; its list is small enough to search here. */
export const WDI_SOURCE = '2';
/** Rows per data page; a country-indicator pair has one row per year, so one page is the usual case. */
export const PAGE_SIZE = 1000;
const MAX_PAGES = 10;
/** The area asked when a seriesId names no country. */
export const WORLD = 'WLD';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

export const indicatorUrl = (code: string, iso3?: string) =>
  `https://data.worldbank.org/indicator/${encodeURIComponent(code)}${iso3 && iso3 !== WORLD ? `?locations=${countryOf(iso3)?.iso2 ?? iso3}` : ''}`;

/** `[header, rows]`; the status-200 error `[{"message":[…]}]` becomes an UpstreamError with the API's words. */
export function readPage(body: unknown): { header: Json; rows: Json[] } {
  if (!Array.isArray(body)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered something other than a [header, rows] array`);
  const messages = obj(body[0]).message;
  if (Array.isArray(messages)) {
    const reason = messages.map((message) => [text(obj(message).value), text(obj(message).key)].filter(Boolean).join(' — ')).join('; ');
    throw new UpstreamError(SOURCE, 'http_error', `${SOURCE} refused the request: ${reason || 'no reason given'}`);
  }
  const rows = Array.isArray(body[1]) ? body[1].map(obj) : []; // an empty result has rows null
  return { header: obj(body[0]), rows };
}

/** "GDP (current US$)" → "current US$": WDI names carry their units in the last parentheses. */
export function unitsOfName(name: string): string | undefined {
  return /\(([^()]+)\)\s*$/.exec(name)?.[1];
}

export interface Indicator {
  id: string;
  name: string;
  description?: string;
  source?: string;
}

export function parseIndicators(body: unknown): Indicator[] {
  return readPage(body).rows.map((row) => ({
    id: String(row.id),
    name: text(row.name) ?? String(row.id),
    description: text(row.sourceNote),
    source: text(obj(row.source).value),
  }));
}

/** One country's data rows → the series; null values are left out. */
export function parseData(
  pages: unknown[],
  code: string,
  indicator: Indicator | undefined,
): Omit<SeriesFacts, 'seriesId'> & { observations: ReturnType<typeof observationsFrom> } {
  const rows = pages.flatMap((page) => readPage(page).rows);
  const first = rows[0] ?? {};
  const name = text(obj(first.indicator).value) ?? indicator?.name ?? code;
  const iso3 = text(first.countryiso3code);
  return {
    title: name,
    description: indicator?.description,
    units: text(first.unit) ?? unitsOfName(name),
    frequency: 'annual',
    geography: text(obj(first.country).value),
    countryCode: iso3 && countryOf(iso3) ? iso3 : undefined,
    dataset: indicator?.source ?? text(obj(readPage(pages[0]).header).sourcename),
    lastUpdated: text(readPage(pages[0]).header.lastupdated),
    observations: observationsFrom(rows.map((row) => ({ period: String(row.date ?? ''), value: typeof row.value === 'number' ? row.value : undefined }))),
  };
}

export async function searchIndicators(upstream: UpstreamClient, search: SeriesSearch): Promise<Candidates> {
  const answer = await upstream.getJson(SOURCE, { path: `/sources/${WDI_SOURCE}/indicators`, searchParams: { format: 'json', per_page: 20000 } });
  const matches = await bestOfWhole(upstream, search, {
    key: `${SOURCE}:indicators`,
    answer,
    items: parseIndicators(answer.body),
    entryOf: (indicator) => ({ id: indicator.id, title: indicator.name }),
  });
  const iso3 = search.country?.iso3;
  return {
    candidates: matches.map((indicator) => ({
      seriesId: formatSeriesId(SOURCE, indicator.id, { country: iso3 }),
      title: indicator.name,
      description: indicator.description,
      units: unitsOfName(indicator.name),
      frequency: 'annual',
      geography: search.country?.name ?? 'World',
      countryCode: iso3,
      dataset: indicator.source,
      url: indicatorUrl(indicator.id, iso3),
    })),
    retrievedAt: answer.retrievedAt,
  };
}

export async function getIndicatorData(upstream: UpstreamClient, request: SeriesRequest): Promise<FetchedSeries> {
  const area = request.country?.iso3 ?? request.dimensions.country ?? WORLD;
  const [startYear, endYear] = [request.start?.slice(0, 4), request.end?.slice(0, 4)];
  const date = startYear || endYear ? `${startYear ?? '1960'}:${endYear ?? new Date().getUTCFullYear()}` : undefined;
  const page = (number: number) =>
    upstream.getJson(SOURCE, {
      path: path`/country/${area}/indicator/${request.id}`,
      searchParams: { format: 'json', per_page: PAGE_SIZE, page: number, date },
    });
  const [first, meta] = await Promise.all([
    page(1),
    optional(async () => {
      const answer = await upstream.getJson(SOURCE, { path: path`/indicator/${request.id}`, searchParams: { format: 'json' } });
      return parseIndicators(answer.body).find((indicator) => indicator.id.toUpperCase() === request.id.toUpperCase());
    }, "the indicator's description"),
  ]);
  const allPages = Number(readPage(first.body).header.pages) || 1;
  const pages = Math.min(allPages, MAX_PAGES);
  const rest = await Promise.all(Array.from({ length: pages - 1 }, (_, index) => page(index + 2)));
  const data = parseData([first.body, ...rest.map((answer) => answer.body)], request.id, meta.value);
  const countryCode = data.countryCode ?? area;
  return {
    series: {
      ...data,
      seriesId: formatSeriesId(SOURCE, request.id, { country: countryCode }),
      url: indicatorUrl(request.id, countryCode),
      observations: withinPeriod(data.observations, request.start, request.end),
      notes: pages < allPages ? [`only the first ${pages * PAGE_SIZE} rows were read`] : [],
    },
    retrievedAt: first.retrievedAt,
    failures: meta.failure ? [meta.failure] : undefined,
  };
}
