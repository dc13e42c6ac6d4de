/**
 * FRED (api.stlouisfed.org/fred): series search, series facts and observations. The key is required
 * (`api_key`), JSON must be asked for (`file_type=json`, the default is XML), values are strings and
 * a missing value is ".". Observations are dated by the first day of their period.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { endDate, frequencyOf, periodOfDate, startDate, valueOf, withinPeriod } from '../statistics/periods.ts';
import { formatSeriesId } from '../statistics/series-id.ts';
import type { Candidates, FetchedSeries, Observation, SeriesFacts, SeriesRequest, SeriesSearch } from '../statistics/series.ts';

export const SOURCE = 'fred' as const;
const KEY = { query: 'api_key' } as const;

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** FRED's "2024-12-19 07:55:01-06" → ISO 8601 "2024-12-19T07:55:01-06:00". */
export function isoTime(value: string | undefined): string | undefined {
  const match = value ? /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})([+-]\d{2})$/.exec(value) : null;
  return match ? `${match[1]}T${match[2]}${match[3]}:00` : value;
}

export const seriesUrl = (id: string) => `https://fred.stlouisfed.org/series/${encodeURIComponent(id)}`;

/** One entry of `seriess` (search and series answers share it). */
export function parseSeriesFacts(item: unknown): SeriesFacts {
  const series = obj(item);
  const id = String(series.id);
  return {
    seriesId: formatSeriesId(SOURCE, id),
    title: text(series.title) ?? id,
    description: text(series.notes),
    units: text(series.units),
    frequency: frequencyOf(text(series.frequency_short) ?? text(series.frequency)),
    seasonalAdjustment: text(series.seasonal_adjustment),
    start: text(series.observation_start),
    end: text(series.observation_end),
    lastUpdated: isoTime(text(series.last_updated)),
    url: seriesUrl(id),
  };
}

export function parseSeriesList(body: unknown): SeriesFacts[] {
  const list = obj(body).seriess;
  if (!Array.isArray(list)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without a seriess list`);
  return list.map(parseSeriesFacts);
}

/** Observations oldest first; "." (missing) is left out, never a number. */
export function parseObservations(body: unknown, frequency: SeriesFacts['frequency']): Observation[] {
  const list = obj(body).observations;
  if (!Array.isArray(list)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without observations`);
  return list.flatMap((item) => {
    const row = obj(item);
    const value = valueOf(row.value);
    const date = text(row.date);
    return value === undefined || !date ? [] : [{ ...periodOfDate(date, frequency), value }];
  });
}

export async function searchSeries(upstream: UpstreamClient, search: SeriesSearch): Promise<Candidates> {
  const answer = await upstream.getJson(SOURCE, {
    path: '/series/search',
    searchParams: { search_text: search.query, file_type: 'json', limit: search.limit },
    key: KEY,
  });
  return { candidates: parseSeriesList(answer.body), retrievedAt: answer.retrievedAt };
}

export async function getObservations(upstream: UpstreamClient, request: SeriesRequest): Promise<FetchedSeries> {
  const [facts, data] = await Promise.all([
    upstream.getJson(SOURCE, { path: '/series', searchParams: { series_id: request.id, file_type: 'json' }, key: KEY }),
    upstream.getJson(SOURCE, {
      path: '/series/observations',
      searchParams: {
        series_id: request.id,
        file_type: 'json',
        observation_start: request.start ? startDate(request.start) : undefined,
        observation_end: request.end ? endDate(request.end) : undefined,
      },
      key: KEY,
    }),
  ]);
  const [series] = parseSeriesList(facts.body);
  if (!series) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} does not know series ${request.id}`);
  return {
    series: {
      ...series,
      geography: undefined,
      observations: withinPeriod(parseObservations(data.body, series.frequency), request.start, request.end),
      notes: [],
    },
    retrievedAt: data.retrievedAt,
  };
}
