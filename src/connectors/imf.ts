/**
 * International Monetary Fund, two current APIs (the old dataservices host is retired):
 * - DataMapper (`www.imf.org/external/datamapper/api/v1`): annual World Economic Outlook and other
 *   indicators per country, ids `imf:<INDICATOR>?country=<ISO3>`; its indicator list is what
 *   find_series searches. An unknown indicator or country answers 200 without `values`.
 * - SDMX 3.0 (`api.imf.org/external/sdmx/3.0`, the source's base URL): any dataflow, ids
 *   `imf:<agency>/<flow>/<key>` such as `imf:IMF.STA/IL/JPN.RGV_REVS.*.Q`, read as SDMX-ML.
 * With SOURCE_IMF_URL set, both go to that address.
 */
import { sources } from '../../generated/tools.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { countryOf } from '../statistics/countries.ts';
import { bestOfWhole } from '../statistics/catalogues.ts';
import { endDate, frequencyOf, observationsFrom, startDate, valueOf, withinPeriod } from '../statistics/periods.ts';
import { pickSeries, readSdmxXml } from '../statistics/sdmx.ts';
import { formatSeriesId } from '../statistics/series-id.ts';
import {
  notApplicable,
  optional,
  pickedNote,
  type Candidates,
  type FetchedSeries,
  type Series,
  type SeriesRequest,
  type SeriesSearch,
} from '../statistics/series.ts';
import { path } from '../upstream/path.ts';

export const SOURCE = 'imf' as const;
const DATAMAPPER_HOST = 'https://www.imf.org/external';
const DATAMAPPER_PATH = '/datamapper/api/v1';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** The DataMapper's host: its real one, or the operator's override of the source. */
function dataMapperBase(upstream: UpstreamClient): string {
  const base = upstream.source(SOURCE).baseUrl;
  return base === sources[SOURCE].baseUrl.replace(/\/+$/, '') ? DATAMAPPER_HOST : base;
}

export const indicatorUrl = (code: string) => `https://www.imf.org/external/datamapper/${encodeURIComponent(code)}`;

export interface Indicator {
  code: string;
  label: string;
  description?: string;
  unit?: string;
  dataset?: string;
}

/** `{"indicators":{"NGDP_RPCH":{"label","description","source","unit","dataset"},…}}`. */
export function parseIndicators(body: unknown): Indicator[] {
  return Object.entries(obj(obj(body).indicators)).flatMap(([code, item]) => {
    const entry = obj(item);
    const label = text(entry.label);
    return label ? [{ code, label, description: text(entry.description), unit: text(entry.unit), dataset: text(entry.source) ?? text(entry.dataset) }] : [];
  });
}

/** `{"values":{"<INDICATOR>":{"<ISO3>":{"<year>":number|null}}}}`; no `values` means the indicator or country is unknown. */
export function parseValues(body: unknown, code: string, area: string) {
  const values = obj(body).values;
  const byYear = obj(obj(obj(values)[code])[area]);
  if (values === undefined || Object.keys(byYear).length === 0) {
    throw new UpstreamError(SOURCE, 'http_error', `${SOURCE} has no values for indicator ${code} in ${area} (the DataMapper answered without them)`);
  }
  return observationsFrom(Object.entries(byYear).map(([year, value]) => ({ period: year, value: valueOf(value) })));
}

const isSdmxId = (id: string) => id.includes('/');

export async function searchIndicators(upstream: UpstreamClient, search: SeriesSearch): Promise<Candidates> {
  // DataMapper values are per country: without a country in the query there is nothing definite to offer.
  const country = search.country;
  if (!country) return notApplicable();
  const answer = await upstream.getJson(SOURCE, { baseUrl: dataMapperBase(upstream), path: `${DATAMAPPER_PATH}/indicators` });
  return {
    candidates: (
      await bestOfWhole(upstream, search, {
        key: `${SOURCE}:indicators`,
        answer,
        items: parseIndicators(answer.body),
        entryOf: (indicator) => ({ id: indicator.code, title: indicator.label }),
      })
    ).map((indicator) => ({
      seriesId: formatSeriesId(SOURCE, indicator.code, { country: country.iso3 }),
      title: `${indicator.label}, ${country.name}`,
      description: indicator.description,
      units: indicator.unit,
      frequency: 'annual',
      geography: country.name,
      countryCode: country.iso3,
      dataset: indicator.dataset,
      url: indicatorUrl(indicator.code),
    })),
    retrievedAt: answer.retrievedAt,
  };
}

async function getDataMapperSeries(upstream: UpstreamClient, request: SeriesRequest): Promise<FetchedSeries> {
  const area = request.country?.iso3 ?? request.dimensions.country;
  if (!area)
    throw new UpstreamError(SOURCE, 'http_error', `${SOURCE}: indicator ${request.id} needs a country (?country=<ISO3> in series_id, or the country argument)`);
  const [startYear, endYear] = [Number(request.start?.slice(0, 4)), Number(request.end?.slice(0, 4))];
  const periods =
    startYear && endYear && endYear >= startYear ? Array.from({ length: endYear - startYear + 1 }, (_, index) => startYear + index).join(',') : undefined;
  const base = dataMapperBase(upstream);
  const [data, list] = await Promise.all([
    upstream.getJson(SOURCE, { baseUrl: base, path: DATAMAPPER_PATH + path`/${request.id}/${area}`, searchParams: { periods } }),
    optional(
      async () => parseIndicators((await upstream.getJson(SOURCE, { baseUrl: base, path: `${DATAMAPPER_PATH}/indicators` })).body),
      "the indicator's title, units and description",
    ),
  ]);
  const indicator = list.value?.find((candidate) => candidate.code === request.id);
  const country = countryOf(area);
  return {
    series: {
      seriesId: formatSeriesId(SOURCE, request.id, { country: area }),
      title: indicator ? `${indicator.label}, ${country?.name ?? area}` : `${request.id}, ${area}`,
      description: indicator?.description,
      units: indicator?.unit,
      frequency: 'annual',
      geography: country?.name ?? area,
      countryCode: country ? country.iso3 : undefined,
      dataset: indicator?.dataset,
      url: indicatorUrl(request.id),
      observations: withinPeriod(parseValues(data.body, request.id, area), request.start, request.end),
      notes: indicator?.dataset?.includes('World Economic Outlook') ? ['World Economic Outlook values include projections for recent and coming years'] : [],
    },
    retrievedAt: data.retrievedAt,
    failures: list.failure ? [list.failure] : undefined,
  };
}

/** SDMX `SCALE` (power of ten) in words. */
const SCALES: Record<string, string> = { '0': 'units', '3': 'thousands', '6': 'millions', '9': 'billions', '12': 'trillions' };

/** An SDMX-ML answer for `<agency>/<flow>` and its key → the one series. */
export function seriesFromSdmx(xml: string, request: Pick<SeriesRequest, 'id' | 'start' | 'end'>, dataflow: string, key: string[]): Series {
  const { series, picked } = pickSeries(readSdmxXml(xml));
  if (!series) throw new UpstreamError(SOURCE, 'http_error', `${SOURCE} has no data for ${request.id}`);
  const code = (id: string) => series.dimensions[id]?.code;
  const country = code('COUNTRY') ? countryOf(code('COUNTRY')!) : undefined;
  const scale = code('SCALE') ? (SCALES[code('SCALE')!] ?? `× 10^${code('SCALE')}`) : undefined;
  const resolvedKey = key.map((part, index) => (part === '*' && index === 0 && country ? country.iso3 : part)).join('.');
  return {
    seriesId: formatSeriesId(SOURCE, `${dataflow}/${resolvedKey}`),
    title: [code('INDICATOR'), code('COUNTRY')].filter(Boolean).join(', ') || request.id,
    units: [code('UNIT'), scale].filter(Boolean).join(', ') || undefined,
    frequency: frequencyOf(code('FREQUENCY') ?? code('FREQ')),
    geography: country?.name ?? code('COUNTRY'),
    countryCode: country?.iso3,
    dataset: dataflow.replace('/', ' '),
    observations: withinPeriod(observationsFrom(series.observations), request.start, request.end),
    notes: pickedNote(picked),
  };
}

/**
 * The SDMX 3.0 time filter as the recorded working request sends it: the brackets encoded, the
 * `ge:`/`le:` operators and the `+` between them literal (`c%5BTIME_PERIOD%5D=ge:2023-01-01+le:2024-02-01`).
 * The dates are the normalised start and end, so nothing else can reach the query.
 */
export function timeFilter(start: string | undefined, end: string | undefined): string | undefined {
  const bounds = [start && `ge:${startDate(start)}`, end && `le:${endDate(end)}`].filter(Boolean);
  if (bounds.some((bound) => !/^(ge|le):\d{4}-\d{2}-\d{2}$/.test(bound as string)))
    throw new UpstreamError(SOURCE, 'http_error', `${SOURCE}: a period bound is not a date`);
  return bounds.length > 0 ? `c%5BTIME_PERIOD%5D=${bounds.join('+')}` : undefined;
}

async function getSdmxSeries(upstream: UpstreamClient, request: SeriesRequest): Promise<FetchedSeries> {
  const [agency, flow, ...keyParts] = request.id.split('/');
  const key = keyParts.join('/').split('.');
  if (!agency || !flow || key.length === 0 || key[0] === '')
    throw new UpstreamError(SOURCE, 'http_error', `${SOURCE}: an SDMX series id is <agency>/<flow>/<key>, e.g. IMF.STA/IL/JPN.RGV_REVS.*.Q; got ${request.id}`);
  // IMF dataflows put the country first in their key.
  if (request.country) key[0] = request.country.iso3;
  const answer = await upstream.getText(SOURCE, {
    path: `/data/dataflow/${encodeURIComponent(agency)}/${encodeURIComponent(flow)}/+/${key.join('.')}`,
    searchParams: { dimensionAtObservation: 'TIME_PERIOD', detail: 'full', includeHistory: 'false' },
    rawQuery: timeFilter(request.start, request.end),
    headers: { accept: 'application/xml' },
  });
  return { series: seriesFromSdmx(answer.body, request, `${agency}/${flow}`, key), retrievedAt: answer.retrievedAt };
}

export function getSeries(upstream: UpstreamClient, request: SeriesRequest): Promise<FetchedSeries> {
  return isSdmxId(request.id) ? getSdmxSeries(upstream, request) : getDataMapperSeries(upstream, request);
}
