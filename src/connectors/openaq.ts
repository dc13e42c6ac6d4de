/**
 * OpenAQ v3 (key in the X-API-Key header on every call): stations near a point
 * (GET /locations?coordinates=<lat>,<lon>&radius=<m ≤ 25,000>&limit) and the daily means of one
 * sensor (GET /sensors/{id}/days?date_from&date_to&limit). Units are per sensor and not normalised;
 * `meta.found` may be a number or a string such as ">5".
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { finite, text } from './json-fields.ts';
import { path } from '../upstream/path.ts';

export const SOURCE = 'openaq' as const;
const KEY = { header: 'X-API-Key' } as const;
const MAX_LOCATIONS = 100;
const MAX_DAYS = 1000;

export type Pollutant = 'pm25' | 'pm10' | 'no2' | 'o3' | 'so2' | 'co';
const POLLUTANTS = new Set<string>(['pm25', 'pm10', 'no2', 'o3', 'so2', 'co']);

export interface Sensor {
  id: number;
  pollutant: Pollutant;
  unit: string;
}

export interface Station {
  id: number;
  name?: string;
  locality?: string;
  countryCode?: string;
  latitude: number;
  longitude: number;
  distanceKm?: number;
  provider?: string;
  licenses: Array<{ name: string; attribution?: string }>;
  /** Sensors of the six pollutants of the tool (others such as no, nox are left out). */
  sensors: Sensor[];
}

export interface DailyMean {
  date: string;
  mean: number;
  coveragePct?: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- OpenAQ answers loose JSON, read field by field
function results(body: unknown): Array<Record<string, any>> {
  const list = (body as { results?: unknown })?.results;
  if (!Array.isArray(list)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without a results list`);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- OpenAQ answers loose JSON, read field by field
  return list as Array<Record<string, any>>;
}

/** meta.found: a count, or a lower bound sent as a string (">5" → 5). */
export function foundCount(body: unknown): number | undefined {
  const found = (body as { meta?: { found?: unknown } })?.meta?.found;
  if (typeof found === 'number') return found;
  const bound = typeof found === 'string' ? /\d+/.exec(found)?.[0] : undefined;
  return bound === undefined ? undefined : Number(bound);
}

export async function searchLocations(
  upstream: UpstreamClient,
  query: { latitude: number; longitude: number; radiusKm: number },
): Promise<{ stations: Station[]; retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, {
    path: '/locations',
    searchParams: { coordinates: `${query.latitude},${query.longitude}`, radius: Math.round(query.radiusKm * 1000), limit: MAX_LOCATIONS, page: 1 },
    key: KEY,
  });
  return { stations: parseLocations(answer.body, query), retrievedAt: answer.retrievedAt };
}

/** Great-circle distance in km (used when OpenAQ sends no distance). */
export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.latitude - a.latitude) * rad) / 2) ** 2 +
    Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(((b.longitude - a.longitude) * rad) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

/** Stations nearest first; distance in km to three decimals. */
export function parseLocations(body: unknown, centre?: { latitude: number; longitude: number }): Station[] {
  const stations = results(body).flatMap((location): Station[] => {
    const latitude = finite(location.coordinates?.latitude);
    const longitude = finite(location.coordinates?.longitude);
    if (typeof location.id !== 'number' || latitude === undefined || longitude === undefined) return [];
    const metres = finite(location.distance);
    const km = metres !== undefined ? metres / 1000 : centre ? distanceKm(centre, { latitude, longitude }) : undefined;
    return [
      {
        id: location.id,
        name: text(location.name),
        locality: text(location.locality),
        countryCode: text(location.country?.code),
        latitude,
        longitude,
        distanceKm: km === undefined ? undefined : Math.round(km * 1000) / 1000,
        provider: text(location.provider?.name),
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- OpenAQ answers loose JSON, read field by field
        licenses: (Array.isArray(location.licenses) ? location.licenses : []).flatMap((license: Record<string, any>) =>
          text(license.name) ? [{ name: text(license.name)!, attribution: text(license.attribution?.name) }] : [],
        ),
        sensors: parseSensors(Array.isArray(location.sensors) ? location.sensors : []),
      },
    ];
  });
  return stations.sort((a, b) => (a.distanceKm ?? Infinity) - (b.distanceKm ?? Infinity));
}

/** Sensors of the six pollutants (the `sensors` of a location, or the results of /sensors/{id} and /locations/{id}/sensors). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- OpenAQ answers loose JSON, read field by field
export function parseSensors(list: Array<Record<string, any>>): Sensor[] {
  return list.flatMap((sensor): Sensor[] => {
    const pollutant = text(sensor.parameter?.name);
    const unit = text(sensor.parameter?.units);
    return typeof sensor.id === 'number' && pollutant && POLLUTANTS.has(pollutant) && unit ? [{ id: sensor.id, pollutant: pollutant as Pollutant, unit }] : [];
  });
}

/** The results of a sensor answer (/sensors/{id}, /locations/{id}/sensors). */
export const parseSensorList = (body: unknown): Sensor[] => parseSensors(results(body));

export async function getSensorDays(
  upstream: UpstreamClient,
  sensorId: number,
  start: string,
  end: string,
): Promise<{ days: DailyMean[]; retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, {
    path: path`/sensors/${sensorId}/days`,
    searchParams: { date_from: start, date_to: end, limit: MAX_DAYS, page: 1 },
    key: KEY,
  });
  return { days: parseDailyMeans(answer.body), retrievedAt: answer.retrievedAt };
}

/** Daily rows (their local day), oldest first; rows without a value are left out. */
export function parseDailyMeans(body: unknown): DailyMean[] {
  return results(body)
    .flatMap((row): DailyMean[] => {
      const mean = finite(row.value) ?? finite(row.summary?.avg);
      const date = text(row.period?.datetimeFrom?.local)?.slice(0, 10) ?? text(row.period?.datetimeFrom?.utc)?.slice(0, 10);
      if (mean === undefined || !date) return [];
      const coverage = finite(row.coverage?.percentComplete);
      return [{ date, mean, coveragePct: coverage === undefined ? undefined : Math.min(100, coverage) }];
    })
    .sort((a, b) => a.date.localeCompare(b.date));
}

/**
 * The largest physically possible daily mean per pollutant and unit (values above, or below zero, are
 * instrument faults): generous ceilings above the worst episodes ever recorded.
 */
const UPPER_BOUNDS: Record<Pollutant, Record<string, number>> = {
  pm25: { 'µg/m³': 1500 },
  pm10: { 'µg/m³': 5000 },
  no2: { ppm: 2, ppb: 2000, 'µg/m³': 4000 },
  o3: { ppm: 1, ppb: 1000, 'µg/m³': 2000 },
  so2: { ppm: 5, ppb: 5000, 'µg/m³': 13000 },
  co: { ppm: 100, ppb: 100000, 'µg/m³': 115000 },
};

export function withinPhysicalBounds(pollutant: Pollutant, unit: string, value: number): boolean {
  const upper = UPPER_BOUNDS[pollutant][unit];
  return value >= 0 && (upper === undefined || value <= upper);
}
