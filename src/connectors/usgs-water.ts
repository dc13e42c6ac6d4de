/**
 * USGS water data. The Water Data OGC API (api.waterdata.usgs.gov/ogcapi/v0) is the current one:
 * daily values at /collections/daily/items (GeoJSON; `value` is a string; cursor paging through the
 * links[] entry rel=next), sites at /collections/monitoring-locations/items (ids `USGS-<number>`).
 * The legacy NWIS WaterServices (waterservices.usgs.gov/nwis, being retired) is the fallback:
 * WaterML-JSON daily values (/nwis/dv/) and tab-separated RDB site lists (/nwis/site/).
 * Site numbers are strings everywhere: their leading zeros matter.
 */
import { sources } from '../../generated/tools.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { finite } from './json-fields.ts';
import { path } from '../upstream/path.ts';

export const SOURCE = 'usgs-water' as const;
export const NWIS_HOST = 'https://waterservices.usgs.gov';
const MEAN = '00003';
/** Pages of daily values followed at most (1,000 values each). */
const MAX_PAGES = 5;
const PAGE_SIZE = 1000;

export type Parameter = 'streamflow' | 'gage_height' | 'water_temperature';
export const PARAMETER_CODES: Record<Parameter, string> = { streamflow: '00060', gage_height: '00065', water_temperature: '00010' };

export interface DailyValue {
  date: string;
  value: number;
  approvalStatus?: 'provisional' | 'approved';
  qualifiers?: string[];
}

export interface DailySeries {
  siteNumber?: string;
  unit?: string;
  values: DailyValue[];
  /** NWIS answers describe the site as well. */
  site?: Site;
}

export interface Site {
  siteNumber: string;
  name?: string;
  siteType?: string;
  state?: string;
  latitude?: number;
  longitude?: number;
  drainageAreaSqMi?: number;
}

export interface DailyQuery {
  siteNumber: string;
  parameter: Parameter;
  start: string;
  end: string;
}

export type SiteQuery = { stateName: string; stateCode: string; limit: number } | { bbox: number[]; limit: number };

export const siteUrl = (siteNumber: string) => `https://waterdata.usgs.gov/monitoring-location/USGS-${siteNumber}/`;

/** A trimmed non-empty string; inner spaces are kept (station names such as "CT-STM    2" are identifiers too). */
const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
/** A number sent as a string ("466", "0.00"); fill texts ("", "Ice", "Eqp") are no number. */
const numberText = (value: unknown): number | undefined => (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : finite(value));

// ---------------------------------------------------------------------------------------- OGC API

export function dailySearchParams(query: DailyQuery): Record<string, string | number> {
  return {
    f: 'json',
    monitoring_location_id: `USGS-${query.siteNumber}`,
    parameter_code: PARAMETER_CODES[query.parameter],
    statistic_id: MEAN,
    datetime: `${query.start}/${query.end}`,
    limit: PAGE_SIZE,
  };
}

/** Daily means of one site and parameter, following the cursor pages; oldest first. */
export async function getDailyValues(upstream: UpstreamClient, query: DailyQuery): Promise<DailySeries & { retrievedAt: string }> {
  let searchParams: Record<string, string | number> = dailySearchParams(query);
  const series: DailySeries = { values: [] };
  let retrievedAt = '';
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await upstream.getJson(SOURCE, { path: '/collections/daily/items', searchParams, key: { header: 'X-Api-Key' } });
    retrievedAt ||= answer.retrievedAt;
    const parsed = parseDailyItems(answer.body);
    series.siteNumber ??= parsed.siteNumber;
    series.unit ??= parsed.unit;
    series.values.push(...parsed.values);
    if (!parsed.next) break;
    searchParams = parsed.next;
  }
  series.values.sort((a, b) => a.date.localeCompare(b.date));
  return { ...series, retrievedAt };
}

interface Feature {
  id?: unknown;
  geometry?: { coordinates?: unknown[] } | null;
  properties?: Record<string, unknown>;
}

function features(body: unknown): Feature[] {
  const collection = body as { type?: unknown; features?: unknown };
  if (!collection || collection.type !== 'FeatureCollection' || !Array.isArray(collection.features)) {
    throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with JSON that is not a GeoJSON FeatureCollection`);
  }
  return collection.features as Feature[];
}

/** The query of the links[] entry rel=next (the cursor page), to ask the same path again. */
function nextPage(body: unknown): Record<string, string> | undefined {
  const links = (body as { links?: Array<{ rel?: unknown; href?: unknown }> }).links ?? [];
  const href = links.find((link) => link.rel === 'next')?.href;
  if (typeof href !== 'string') return undefined;
  return Object.fromEntries(new URL(href).searchParams);
}

const siteOf = (id: unknown) => (typeof id === 'string' ? id.replace(/^USGS-/, '') : undefined);

/** One page of /collections/daily/items: values in time order (the API orders by id), fill texts left out. */
export function parseDailyItems(body: unknown): DailySeries & { next?: Record<string, string> } {
  const values: DailyValue[] = [];
  let siteNumber: string | undefined;
  let unit: string | undefined;
  for (const feature of features(body)) {
    const properties = feature.properties ?? {};
    siteNumber ??= siteOf(properties.monitoring_location_id);
    unit ??= text(properties.unit_of_measure);
    const value = numberText(properties.value);
    const date = text(properties.time)?.slice(0, 10);
    if (value === undefined || !date) continue;
    const status = text(properties.approval_status)?.toLowerCase();
    const qualifiers = Array.isArray(properties.qualifier) ? properties.qualifier.filter((code): code is string => typeof code === 'string') : [];
    values.push({
      date,
      value,
      approvalStatus: status === 'approved' || status === 'provisional' ? status : undefined,
      qualifiers: qualifiers.length > 0 ? qualifiers : undefined,
    });
  }
  values.sort((a, b) => a.date.localeCompare(b.date));
  return { siteNumber, unit, values, next: nextPage(body) };
}

/** One site by number; undefined when the API does not know it (404). */
export async function getMonitoringLocation(upstream: UpstreamClient, siteNumber: string): Promise<Site | undefined> {
  try {
    const answer = await upstream.getJson(SOURCE, {
      path: path`/collections/monitoring-locations/items/${`USGS-${siteNumber}`}`,
      searchParams: { f: 'json' },
      key: { header: 'X-Api-Key' },
    });
    return parseMonitoringLocations(answer.body)[0];
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return undefined;
    throw error;
  }
}

export function monitoringLocationParams(query: SiteQuery): Record<string, string | number | undefined> {
  const where = 'bbox' in query ? { bbox: query.bbox.join(',') } : { state_name: query.stateName };
  return { f: 'json', ...where, site_type_code: 'ST', limit: query.limit };
}

/** Stream sites of a state or bounding box. */
export async function searchMonitoringLocations(upstream: UpstreamClient, query: SiteQuery): Promise<{ sites: Site[]; retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, {
    path: '/collections/monitoring-locations/items',
    searchParams: monitoringLocationParams(query),
    key: { header: 'X-Api-Key' },
  });
  return { sites: parseMonitoringLocations(answer.body).slice(0, query.limit), retrievedAt: answer.retrievedAt };
}

/** The sites of a FeatureCollection, or the one site of a single Feature. */
export function parseMonitoringLocations(body: unknown): Site[] {
  const list = (body as { type?: unknown })?.type === 'Feature' ? [body as Feature] : features(body);
  return list.flatMap((feature) => {
    const properties = feature.properties ?? {};
    const siteNumber = text(properties.monitoring_location_number) ?? siteOf(properties.id ?? feature.id);
    if (!siteNumber) return [];
    const [longitude, latitude] = feature.geometry?.coordinates ?? [];
    return [
      {
        siteNumber,
        name: text(properties.monitoring_location_name),
        siteType: text(properties.site_type),
        state: text(properties.state_name),
        latitude: finite(latitude),
        longitude: finite(longitude),
        drainageAreaSqMi: finite(properties.drainage_area),
      },
    ];
  });
}

// ------------------------------------------------------------------------ NWIS WaterServices (legacy)

/** The NWIS host: USGS's own beside the real OGC host; beside an overridden one (a mirror, a test), the override. */
function nwisBaseUrl(upstream: UpstreamClient): string {
  const base = upstream.source(SOURCE).baseUrl;
  return base === sources[SOURCE].baseUrl.replace(/\/+$/, '') ? NWIS_HOST : base;
}

export async function getNwisDailyValues(upstream: UpstreamClient, query: DailyQuery): Promise<DailySeries & { retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, {
    baseUrl: nwisBaseUrl(upstream),
    path: '/nwis/dv/',
    searchParams: {
      format: 'json',
      sites: query.siteNumber,
      parameterCd: PARAMETER_CODES[query.parameter],
      statCd: MEAN,
      startDT: query.start,
      endDT: query.end,
    },
  });
  return { ...parseNwisDailyValues(answer.body, PARAMETER_CODES[query.parameter]), retrievedAt: answer.retrievedAt };
}

interface TimeSeries {
  name?: unknown;
  sourceInfo?: { siteName?: unknown; siteCode?: Array<{ value?: unknown }>; geoLocation?: { geogLocation?: { latitude?: unknown; longitude?: unknown } } };
  variable?: {
    variableCode?: Array<{ value?: unknown }>;
    unit?: { unitCode?: unknown };
    options?: { option?: Array<{ optionCode?: unknown }> };
    noDataValue?: unknown;
  };
  values?: Array<{ value?: Array<{ value?: unknown; qualifiers?: unknown; dateTime?: unknown }> }>;
}

/** The daily-mean series of `parameterCode` in a WaterML-JSON answer (the first site that has it). */
export function parseNwisDailyValues(body: unknown, parameterCode: string): DailySeries {
  const all = (body as { value?: { timeSeries?: unknown } })?.value?.timeSeries;
  if (!Array.isArray(all)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with JSON that is not WaterML (no value.timeSeries)`);
  const series = (all as TimeSeries[]).find(
    (entry) => entry.variable?.variableCode?.[0]?.value === parameterCode && entry.variable?.options?.option?.[0]?.optionCode === MEAN,
  );
  if (!series) return { values: [] };
  const noData = finite(series.variable?.noDataValue);
  const values: DailyValue[] = [];
  for (const point of series.values?.[0]?.value ?? []) {
    const value = numberText(point.value);
    const date = text(point.dateTime)?.slice(0, 10);
    if (value === undefined || value === noData || !date) continue;
    const codes = Array.isArray(point.qualifiers) ? point.qualifiers.filter((code): code is string => typeof code === 'string') : [];
    const others = codes.filter((code) => code !== 'A' && code !== 'P');
    values.push({
      date,
      value,
      approvalStatus: codes.includes('A') ? 'approved' : codes.includes('P') ? 'provisional' : undefined,
      qualifiers: others.length > 0 ? others : undefined,
    });
  }
  const siteNumber = text(series.sourceInfo?.siteCode?.[0]?.value);
  const location = series.sourceInfo?.geoLocation?.geogLocation;
  return {
    siteNumber,
    unit: text(series.variable?.unit?.unitCode),
    values,
    site: siteNumber
      ? { siteNumber, name: text(series.sourceInfo?.siteName), latitude: finite(location?.latitude), longitude: finite(location?.longitude) }
      : undefined,
  };
}

export async function searchNwisSites(upstream: UpstreamClient, query: SiteQuery, parameter: Parameter): Promise<{ sites: Site[]; retrievedAt: string }> {
  const where = 'bbox' in query ? { bBox: query.bbox.join(',') } : { stateCd: query.stateCode.toLowerCase() };
  const answer = await upstream.getText(SOURCE, {
    baseUrl: nwisBaseUrl(upstream),
    path: '/nwis/site/',
    searchParams: { format: 'rdb', ...where, siteType: 'ST', hasDataTypeCd: 'dv', parameterCd: PARAMETER_CODES[parameter] },
  });
  return { sites: parseRdbSites(answer.body).slice(0, query.limit), retrievedAt: answer.retrievedAt };
}

/** NWIS RDB: `#` comments, a column-name row, a width/type row (`5s 15s …`), then tab-separated rows. */
export function parseRdbSites(body: string): Site[] {
  const lines = body.split(/\r?\n/).filter((line) => line !== '' && !line.startsWith('#'));
  const [header, , ...rows] = lines;
  if (!header?.includes('site_no')) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with text that is not an RDB site list`);
  const columns = header.split('\t');
  return rows.map((row) => {
    const cells = Object.fromEntries(row.split('\t').map((cell, index) => [columns[index], cell.trim()]));
    const number = (name: string) => (cells[name] ? numberText(cells[name]) : undefined);
    return {
      siteNumber: cells.site_no!,
      name: text(cells.station_nm),
      latitude: number('dec_lat_va'),
      longitude: number('dec_long_va'),
      drainageAreaSqMi: number('drain_area_va'),
    };
  });
}
