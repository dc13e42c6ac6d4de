/**
 * NASA POWER point data: GET <base>/{daily|monthly}/point?parameters=…&community=RE&latitude&longitude
 * &start&end&format=JSON&time-standard=UTC. The answer is a GeoJSON Feature whose
 * properties.parameter.<PARAM> maps date keys (strings: daily YYYYMMDD, monthly YYYYMM with YYYY13 =
 * the annual value) to numbers; missing data is the number header.fill_value (-999), never null.
 * The CSV format (a -BEGIN HEADER- … -END HEADER- block, then YEAR,DOY,<params>) reads to the same shape.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';

export const SOURCE = 'nasa-power' as const;

/** MERRA-2 meteorology grid; POWER's solar values come from a 1° grid. */
export const GRID = 'NASA POWER: MERRA-2 0.5° × 0.625° (about 50 km; solar 1°)';

export type WeatherVariable =
  'temperature_max' | 'temperature_min' | 'temperature_mean' | 'precipitation' | 'relative_humidity' | 'wind_speed' | 'solar_radiation';

/** POWER parameter of each variable; community RE gives radiation in kW-hr/m^2/day. */
export const PARAMETERS: Record<WeatherVariable, string> = {
  temperature_max: 'T2M_MAX',
  temperature_min: 'T2M_MIN',
  temperature_mean: 'T2M',
  precipitation: 'PRECTOTCORR',
  relative_humidity: 'RH2M',
  wind_speed: 'WS2M',
  solar_radiation: 'ALLSKY_SFC_SW_DWN',
};

const DEFAULT_FILL = -999;

/** What a POWER answer holds: per parameter, its unit and its values by date key, fill values left out. */
export interface PowerAnswer {
  longitude?: number;
  latitude?: number;
  elevationM?: number;
  units: Record<string, string>;
  /** parameter → date key (as sent: YYYYMMDD, YYYYMM, YYYY13) → value. */
  values: Record<string, Record<string, number>>;
}

/** One period of a series: a day (YYYY-MM-DD) or month (YYYY-MM), with the variables that have a value. */
export interface WeatherPeriod {
  date: string;
  values: Partial<Record<WeatherVariable, number>>;
}

export interface WeatherSeries {
  elevationM?: number;
  grid: string;
  periods: WeatherPeriod[];
  /** Monthly answers only: the annual values (POWER's month "13"), by year. */
  annual?: Record<string, Partial<Record<WeatherVariable, number>>>;
  retrievedAt: string;
}

export interface PointQuery {
  latitude: number;
  longitude: number;
  /** YYYY-MM-DD */
  start: string;
  end: string;
  variables: WeatherVariable[];
}

export function pointSearchParams(query: PointQuery, aggregate: 'daily' | 'monthly'): Record<string, string | number> {
  const date = (day: string) => (aggregate === 'daily' ? day.replace(/-/g, '') : day.slice(0, 4));
  return {
    parameters: query.variables.map((variable) => PARAMETERS[variable]).join(','),
    community: 'RE',
    longitude: query.longitude,
    latitude: query.latitude,
    start: date(query.start),
    end: date(query.end),
    format: 'JSON',
    'time-standard': 'UTC',
  };
}

export async function getPoint(upstream: UpstreamClient, query: PointQuery, aggregate: 'daily' | 'monthly'): Promise<WeatherSeries> {
  const answer = await upstream.getJson(SOURCE, { path: `/${aggregate}/point`, searchParams: pointSearchParams(query, aggregate) });
  const parsed = parsePowerJson(answer.body);
  return { ...toSeries(parsed, query, aggregate), retrievedAt: answer.retrievedAt };
}

const isFill = (value: number, fill: number) => value === fill || value === DEFAULT_FILL;

/** A POWER JSON answer (a point Feature, or the first feature of a regional FeatureCollection). */
export function parsePowerJson(body: unknown): PowerAnswer {
  const root = body as {
    type?: unknown;
    features?: unknown[];
    header?: { fill_value?: unknown };
    parameters?: Record<string, { units?: unknown }>;
    messages?: unknown;
  };
  const feature = (root?.type === 'FeatureCollection' ? root.features?.[0] : root) as
    { geometry?: { coordinates?: unknown[] }; properties?: { parameter?: Record<string, Record<string, unknown>> } } | undefined;
  const parameter = feature?.properties?.parameter;
  if (!parameter || typeof parameter !== 'object') {
    const messages = Array.isArray(root?.messages) ? root.messages.filter((message) => typeof message === 'string').join(' ') : '';
    throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without parameter values${messages ? `: ${messages}` : ''}`);
  }
  const fill = typeof root.header?.fill_value === 'number' ? root.header.fill_value : DEFAULT_FILL;
  const values: PowerAnswer['values'] = {};
  for (const [name, byDate] of Object.entries(parameter)) {
    values[name] = {};
    for (const [key, value] of Object.entries(byDate ?? {})) if (typeof value === 'number' && !isFill(value, fill)) values[name]![key] = value;
  }
  const units = Object.fromEntries(
    Object.entries(root.parameters ?? {}).flatMap(([name, meta]) => (typeof meta?.units === 'string' ? [[name, meta.units]] : [])),
  );
  const [longitude, latitude, elevation] = (feature?.geometry?.coordinates ?? []) as unknown[];
  return {
    longitude: typeof longitude === 'number' ? longitude : undefined,
    latitude: typeof latitude === 'number' ? latitude : undefined,
    elevationM: typeof elevation === 'number' ? elevation : undefined,
    units,
    values,
  };
}

/** A POWER CSV answer (daily: YEAR,DOY,<params>), read to the same shape as the JSON. */
export function parsePowerCsv(text: string): PowerAnswer {
  const lines = text.split(/\r?\n/);
  const headerEnd = lines.findIndex((line) => line.trim() === '-END HEADER-');
  const header = lines.slice(0, Math.max(0, headerEnd));
  const fill = Number(/outside of the sources availability range:\s*(-?\d+(\.\d+)?)/.exec(header.join('\n'))?.[1] ?? DEFAULT_FILL);
  const elevation = /=\s*(-?\d+(\.\d+)?)\s*meters/.exec(header.join('\n'))?.[1];
  const units: Record<string, string> = {};
  for (const line of header) {
    const unit = /^([A-Z0-9_]+)\s+.*\(([^()]+)\)\s*$/.exec(line.trim());
    if (unit) units[unit[1]!] = unit[2]!;
  }
  const [columns, ...rows] = lines.slice(headerEnd + 1).filter((line) => line.trim() !== '');
  const names = (columns ?? '').split(',');
  if (names[0] !== 'YEAR' || names[1] !== 'DOY') throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with CSV that has no YEAR,DOY columns`);
  const values: PowerAnswer['values'] = Object.fromEntries(names.slice(2).map((name) => [name, {}]));
  for (const row of rows) {
    const cells = row.split(',');
    const key = dayKey(Number(cells[0]), Number(cells[1]));
    names.slice(2).forEach((name, index) => {
      const value = Number(cells[index + 2]);
      if (cells[index + 2] !== '' && Number.isFinite(value) && !isFill(value, fill)) values[name]![key] = value;
    });
  }
  return { elevationM: elevation === undefined ? undefined : Number(elevation), units, values };
}

/** YEAR + day of year → YYYYMMDD. */
function dayKey(year: number, dayOfYear: number): string {
  return new Date(Date.UTC(year, 0, dayOfYear)).toISOString().slice(0, 10).replace(/-/g, '');
}

/** A value in the unit of the record field: radiation in MJ/m^2/day (community AG) becomes kWh/m²/day. */
function inRecordUnit(value: number, unit: string | undefined): number {
  if (unit === 'MJ/m^2/day') return Math.round((value / 3.6) * 1000) / 1000;
  return value;
}

/** Periods oldest first within [start, end]; monthly keys YYYY13 (annual values) go to `annual`. */
export function toSeries(
  parsed: PowerAnswer,
  query: Pick<PointQuery, 'start' | 'end' | 'variables'>,
  aggregate: 'daily' | 'monthly',
): Omit<WeatherSeries, 'retrievedAt'> {
  const periods = new Map<string, WeatherPeriod>();
  const annual: NonNullable<WeatherSeries['annual']> = {};
  const from = aggregate === 'daily' ? query.start : query.start.slice(0, 7);
  const to = aggregate === 'daily' ? query.end : query.end.slice(0, 7);
  for (const variable of query.variables) {
    const parameter = PARAMETERS[variable];
    for (const [key, raw] of Object.entries(parsed.values[parameter] ?? {})) {
      const value = inRecordUnit(raw, parsed.units[parameter]);
      if (aggregate === 'monthly' && key.slice(4) === '13') {
        (annual[key.slice(0, 4)] ??= {})[variable] = value;
        continue;
      }
      const date = aggregate === 'daily' ? `${key.slice(0, 4)}-${key.slice(4, 6)}-${key.slice(6, 8)}` : `${key.slice(0, 4)}-${key.slice(4, 6)}`;
      if (date < from || date > to) continue;
      let period = periods.get(date);
      if (!period) periods.set(date, (period = { date, values: {} }));
      period.values[variable] = value;
    }
  }
  return {
    elevationM: parsed.elevationM,
    grid: GRID,
    periods: [...periods.values()].sort((a, b) => a.date.localeCompare(b.date)),
    annual: aggregate === 'monthly' ? annual : undefined,
  };
}
