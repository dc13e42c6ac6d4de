/**
 * Eurostat Statistics API (JSON-stat 2.0, `/statistics/1.0/data/{dataset}?geo=DE&unit=…`), read with
 * the JSON-stat Toolkit. Eurostat drops an unknown filter code silently (the answer simply lacks it),
 * so every code asked for is checked against the answer and a missing one is said. Dataset search is
 * the table of contents (`/catalogue/toc/txt`), matched here since the API has no search.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import JSONstat, { type JsonStatDataset } from 'jsonstat-toolkit';
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { countryOf, type Country } from '../statistics/countries.ts';
import { bestOfWhole } from '../statistics/catalogues.ts';
import { frequencyOf, normalisePeriod, withinPeriod } from '../statistics/periods.ts';
import { formatSeriesId } from '../statistics/series-id.ts';
import { pickedNote, type Candidates, type FetchedSeries, type Observation, type Series, type SeriesRequest, type SeriesSearch } from '../statistics/series.ts';
import { path } from '../upstream/path.ts';

export const SOURCE = 'eurostat' as const;
/** Codes that stand for a total: preferred when a dimension was left open. */
const TOTAL_CODES = ['TOTAL', 'T', '_T', 'EU27_2020'];

export const datasetUrl = (code: string) => `https://ec.europa.eu/eurostat/databrowser/view/${encodeURIComponent(code)}/default/table`;

/** Eurostat's geo codes are ISO 3166-1 alpha-2 except Greece (EL) and the United Kingdom (UK). */
export function geoOf(country: Country): string {
  return country.iso2 === 'GR' ? 'EL' : country.iso2 === 'GB' ? 'UK' : country.iso2;
}

function countryOfGeo(geo: string): Country | undefined {
  return geo === 'EL' ? countryOf('GR') : geo === 'UK' ? countryOf('GB') : geo.length === 2 ? countryOf(geo) : undefined;
}

export interface TocEntry {
  title: string;
  code: string;
  type: string;
  lastUpdate?: string;
  dataStart?: string;
  dataEnd?: string;
}

/** The table of contents (TSV: title, code, type, last update of data, last table structure change, data start, data end, values). */
export function parseToc(text: string): TocEntry[] {
  const rows = parseCsv(text, { delimiter: '\t', bom: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
  return rows.slice(1).flatMap(([title, code, type, lastUpdate, , dataStart, dataEnd]) =>
    title && code && (type === 'dataset' || type === 'table')
      ? [
          {
            title: title.trim(),
            code: code.trim(),
            type,
            lastUpdate: lastUpdate?.trim() || undefined,
            dataStart: dataStart?.trim() || undefined,
            dataEnd: dataEnd?.trim() || undefined,
          },
        ]
      : [],
  );
}

/** "dd.mm.yyyy" (the TOC's dates) → ISO date; anything else unchanged. */
function isoDate(text: string | undefined): string | undefined {
  const match = text ? /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text) : null;
  return match ? `${match[3]}-${match[2]}-${match[1]}` : text;
}

export async function searchDatasets(upstream: UpstreamClient, search: SeriesSearch): Promise<Candidates> {
  const answer = await upstream.getText(SOURCE, { path: '/catalogue/toc/txt', searchParams: { lang: 'en' } });
  const unique = [...new Map(parseToc(answer.body).map((entry) => [entry.code, entry])).values()];
  const geo = search.country ? geoOf(search.country) : undefined;
  return {
    candidates: (
      await bestOfWhole(upstream, search, { key: `${SOURCE}:toc`, answer, items: unique, entryOf: (entry) => ({ id: entry.code, title: entry.title }) })
    ).map((entry) => ({
      seriesId: formatSeriesId(SOURCE, entry.code, { geo }),
      title: entry.title,
      geography: search.country?.name,
      countryCode: search.country?.iso3,
      dataset: entry.code,
      start: entry.dataStart,
      end: entry.dataEnd,
      lastUpdated: isoDate(entry.lastUpdate),
      url: datasetUrl(entry.code),
    })),
    retrievedAt: answer.retrievedAt,
  };
}

/** `dimension=code` pairs asked for that the answer does not hold: Eurostat dropped them without a word. */
export function missingCodes(dataset: JsonStatDataset, requested: Record<string, string[]>): string[] {
  return Object.entries(requested).flatMap(([dimension, codes]) => {
    const present = dataset.Dimension(dimension)?.id ?? [];
    return codes.filter((code) => !present.some((id) => id.toUpperCase() === code.toUpperCase())).map((code) => `${dimension}=${code}`);
  });
}

export interface ReadDataset {
  title: string;
  /** The code picked per dimension (time excluded), in the dataset's order. */
  codes: Record<string, string>;
  /** Dimensions left open that had several codes, with the one picked. */
  picked: Record<string, string>;
  labels: Record<string, string | undefined>;
  updated?: string;
  observations: Observation[];
  /** Periods the answer flags but gives no value for (confidential, not available). */
  flaggedWithoutValue: number;
}

/** One series of a JSON-stat dataset: requested codes where given, otherwise a total or the first code. */
export function readDataset(body: object, requested: Record<string, string>): ReadDataset {
  const dataset = JSONstat(body);
  if (dataset.class !== 'dataset' || dataset.id.length === 0)
    throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered something other than a JSON-stat dataset`);
  const codes: Record<string, string> = {};
  const picked: Record<string, string> = {};
  const labels: Record<string, string | undefined> = {};
  for (const id of dataset.id.filter((dimension) => dimension !== 'time')) {
    const ids = dataset.Dimension(id)?.id ?? [];
    const asked = requested[id] && ids.find((code) => code.toUpperCase() === requested[id]!.toUpperCase());
    const code = asked || ids.find((candidate) => TOTAL_CODES.includes(candidate)) || ids[0];
    if (code === undefined) continue;
    codes[id] = code;
    labels[id] = dataset.Dimension(id)?.Category(code)?.label ?? undefined;
    if (!asked && ids.length > 1) picked[id] = code;
  }
  const statusLabels = (dataset.extension?.status as { label?: Record<string, string> } | undefined)?.label ?? {};
  // A dataset without any value ({} on the wire) answers no cell: its flags are all there is.
  let flaggedWithoutValue = dataset.value === null ? (dataset.status ?? []).filter((flag) => flag !== null).length : 0;
  const observations = (dataset.Dimension('time')?.id ?? []).flatMap((time) => {
    const cell = dataset.Data({ ...codes, time });
    const period = normalisePeriod(time);
    if (!cell || !period) return [];
    if (cell.value === null) {
      if (cell.status) flaggedWithoutValue += 1;
      return [];
    }
    const status = cell.status ? (statusLabels[cell.status] ?? cell.status).replace(/^\|/, '') : undefined;
    return [status ? { ...period, value: cell.value, status } : { ...period, value: cell.value }];
  });
  return {
    title: dataset.label ?? '',
    codes,
    picked,
    labels,
    updated: dataset.updated ?? undefined,
    observations: withinPeriod(observations, undefined, undefined),
    flaggedWithoutValue,
  };
}

/** A JSON-stat answer for the codes requested → the one series; a requested code the answer lacks is an error that says so. */
export function seriesFromDataset(body: object, request: Pick<SeriesRequest, 'id' | 'start' | 'end'>, requested: Record<string, string>): Series {
  const read = readDataset(body, requested);
  const dropped = missingCodes(JSONstat(body), Object.fromEntries(Object.entries(requested).map(([id, code]) => [id, [code]])));
  if (dropped.length > 0) {
    throw new UpstreamError(
      SOURCE,
      'http_error',
      `${SOURCE} has no ${dropped.join(', ')} in dataset ${request.id}: it leaves out unknown codes without an error`,
    );
  }
  const geo = read.codes.geo;
  return {
    seriesId: formatSeriesId(SOURCE, request.id, read.codes),
    title: read.title,
    units: read.labels.unit,
    frequency: frequencyOf(read.codes.freq),
    seasonalAdjustment: read.labels.s_adj,
    geography: read.labels.geo,
    countryCode: geo ? countryOfGeo(geo)?.iso3 : undefined,
    dataset: request.id,
    lastUpdated: read.updated,
    url: datasetUrl(request.id),
    observations: withinPeriod(read.observations, request.start, request.end),
    notes: [
      ...pickedNote(read.picked),
      ...(read.flaggedWithoutValue > 0 ? [`${read.flaggedWithoutValue} periods flagged without a value (e.g. confidential) were left out`] : []),
    ],
  };
}

export async function getData(upstream: UpstreamClient, request: SeriesRequest): Promise<FetchedSeries> {
  const requested = { ...request.dimensions, ...(request.country ? { geo: geoOf(request.country) } : {}) };
  const period = (value: string | undefined) => value?.slice(0, 7); // Eurostat takes years and months, not days
  const answer = await upstream.getJson<object>(SOURCE, {
    path: path`/statistics/1.0/data/${request.id}`,
    searchParams: { format: 'JSON', lang: 'EN', ...requested, sinceTimePeriod: period(request.start), untilTimePeriod: period(request.end) },
  });
  return { series: seriesFromDataset(answer.body, request, requested), retrievedAt: answer.retrievedAt };
}
