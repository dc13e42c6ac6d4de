/**
 * Open-Meteo historical weather (archive), the alternative when NASA POWER fails:
 * GET <base>/archive?latitude&longitude&start_date&end_date&daily=<list>&timezone=UTC.
 * `daily` holds parallel arrays indexed by `daily.time`; missing values are null; `daily_units`
 * names each unit (°C or °F, mm, %, MJ/m²). Latitude/longitude of the answer are the snapped grid cell.
 * Open-Meteo has no wind speed at 2 m (only 10 m), so wind_speed is not asked of it.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import type { PointQuery, WeatherPeriod, WeatherVariable } from './nasa-power.ts';

export const SOURCE = 'open-meteo' as const;

export const GRID = 'Open-Meteo archive: ERA5 reanalysis (0.25°, about 25 km) and ERA5-Land';

/** Open-Meteo daily variable of each of ours that it has. */
export const DAILY_VARIABLES: Partial<Record<WeatherVariable, string>> = {
  temperature_max: 'temperature_2m_max',
  temperature_min: 'temperature_2m_min',
  temperature_mean: 'temperature_2m_mean',
  precipitation: 'precipitation_sum',
  relative_humidity: 'relative_humidity_2m_mean',
  solar_radiation: 'shortwave_radiation_sum',
};

export interface ArchiveSeries {
  gridLatitude?: number;
  gridLongitude?: number;
  elevationM?: number;
  grid: string;
  /** Days oldest first, with the variables that have a value. */
  days: WeatherPeriod[];
  /** Requested variables Open-Meteo does not have. */
  unavailable: WeatherVariable[];
  retrievedAt: string;
}

export function archiveSearchParams(query: PointQuery): Record<string, string | number> {
  return {
    latitude: query.latitude,
    longitude: query.longitude,
    start_date: query.start,
    end_date: query.end,
    daily: query.variables.flatMap((variable) => DAILY_VARIABLES[variable] ?? []).join(','),
    timezone: 'UTC',
  };
}

export async function getArchiveDaily(upstream: UpstreamClient, query: PointQuery): Promise<ArchiveSeries> {
  if (!query.variables.some((variable) => DAILY_VARIABLES[variable] !== undefined)) {
    throw new UpstreamError(SOURCE, 'http_error', `${SOURCE} has none of the requested variables (${query.variables.join(', ')})`);
  }
  const answer = await upstream.getJson(SOURCE, { path: '/archive', searchParams: archiveSearchParams(query) });
  return { ...parseArchive(answer.body, query.variables), retrievedAt: answer.retrievedAt };
}

/** A value in the unit of the record field: °F becomes °C, MJ/m² a day becomes kWh/m²/day. */
function inRecordUnit(value: number, unit: string | undefined): number {
  if (unit === '°F') return Math.round((((value - 32) * 5) / 9) * 100) / 100;
  if (unit === 'MJ/m²') return Math.round((value / 3.6) * 1000) / 1000;
  return value;
}

export function parseArchive(body: unknown, variables: WeatherVariable[]): Omit<ArchiveSeries, 'retrievedAt'> {
  const root = body as {
    error?: unknown;
    reason?: unknown;
    latitude?: unknown;
    longitude?: unknown;
    elevation?: unknown;
    daily?: Record<string, unknown[]>;
    daily_units?: Record<string, string>;
  };
  if (root?.error === true) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with an error: ${String(root.reason ?? 'no reason given')}`);
  const time = root?.daily?.time;
  if (!Array.isArray(time)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without daily values`);
  const days: WeatherPeriod[] = time.map((date) => ({ date: String(date), values: {} }));
  for (const variable of variables) {
    const name = DAILY_VARIABLES[variable];
    const column = name ? root.daily?.[name] : undefined;
    if (!name || !Array.isArray(column)) continue;
    column.forEach((value, index) => {
      if (typeof value === 'number' && days[index]) days[index]!.values[variable] = inRecordUnit(value, root.daily_units?.[name]);
    });
  }
  return {
    gridLatitude: typeof root.latitude === 'number' ? root.latitude : undefined,
    gridLongitude: typeof root.longitude === 'number' ? root.longitude : undefined,
    elevationM: typeof root.elevation === 'number' ? root.elevation : undefined,
    grid: GRID,
    days,
    unavailable: variables.filter((variable) => DAILY_VARIABLES[variable] === undefined),
  };
}

/** Monthly means of daily periods (YYYY-MM), each variable averaged over the days that have it. */
export function monthlyMeans(days: WeatherPeriod[]): WeatherPeriod[] {
  const months = new Map<string, Map<WeatherVariable, number[]>>();
  for (const day of days) {
    const month = day.date.slice(0, 7);
    const sums = months.get(month) ?? new Map<WeatherVariable, number[]>();
    months.set(month, sums);
    for (const [variable, value] of Object.entries(day.values) as Array<[WeatherVariable, number]>) sums.set(variable, [...(sums.get(variable) ?? []), value]);
  }
  return [...months].map(([date, sums]) => ({
    date,
    values: Object.fromEntries([...sums].map(([variable, list]) => [variable, Math.round((list.reduce((a, b) => a + b, 0) / list.length) * 100) / 100])),
  }));
}
