/**
 * get_weather_history: NASA POWER daily or monthly point data; when POWER fails, Open-Meteo's
 * archive answers instead (its daily values, averaged per month for a monthly request). Either way
 * the values are gridded model values, not station records, and the record says so.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { GetWeatherHistoryArgs, GetWeatherHistoryData } from '../../generated/types.ts';
import * as power from '../connectors/nasa-power.ts';
import * as openMeteo from '../connectors/open-meteo.ts';
import type { ToolContext } from './context.ts';
import { Join } from '../life/parts.ts';
import { count, makeRecord } from './result.ts';

type Data = GetWeatherHistoryData;
type Values = Data['values'][number];

/** The record field of each variable (the unit is in the name). */
const FIELDS: Record<power.WeatherVariable, keyof Omit<Values, 'date'>> = {
  temperature_max: 'temperature_max_c',
  temperature_min: 'temperature_min_c',
  temperature_mean: 'temperature_mean_c',
  precipitation: 'precipitation_mm_per_day',
  relative_humidity: 'relative_humidity_pct',
  wind_speed: 'wind_speed_m_s',
  solar_radiation: 'solar_radiation_kwh_m2_day',
};

function toValues(periods: power.WeatherPeriod[]): Values[] {
  return periods.map((period) => {
    const values: Values = { date: period.date };
    for (const [variable, value] of Object.entries(period.values) as Array<[power.WeatherVariable, number]>) values[FIELDS[variable]] = value;
    return values;
  });
}

interface Answer {
  source: 'nasa-power' | 'open-meteo';
  periods: power.WeatherPeriod[];
  elevationM?: number;
  grid: string;
  retrievedAt: string;
  note?: string;
}

async function fromOpenMeteo(context: ToolContext, query: power.PointQuery, aggregate: Data['aggregate']): Promise<Answer> {
  const series = await openMeteo.getArchiveDaily(context.upstream, query);
  const missing = series.unavailable.length > 0 ? `${series.unavailable.join(', ')} not available from Open-Meteo` : undefined;
  return {
    source: 'open-meteo',
    periods: aggregate === 'monthly' ? openMeteo.monthlyMeans(series.days) : series.days,
    elevationM: series.elevationM,
    grid: series.grid,
    retrievedAt: series.retrievedAt,
    note: missing,
  };
}

export const getWeatherHistory: ToolHandler<GetWeatherHistoryArgs, Data, ToolContext> = async (args, context) => {
  const query: power.PointQuery = { latitude: args.latitude, longitude: args.longitude, start: args.start, end: args.end, variables: args.variables };
  const join = new Join((source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'));
  const answer: Answer | undefined =
    (await join.attempt('nasa-power', 'NASA POWER values (Open-Meteo asked instead)', async () => ({
      source: 'nasa-power' as const,
      ...(await power.getPoint(context.upstream, query, args.aggregate)),
    }))) ?? (await join.attempt('open-meteo', 'weather values', () => fromOpenMeteo(context, query, args.aggregate)));
  if (!answer) return join.outcome<Data>([], '');

  const where = `${args.latitude}, ${args.longitude}`;
  const data: Data = {
    latitude: args.latitude,
    longitude: args.longitude,
    elevation_m: answer.elevationM,
    data_kind: 'gridded_model',
    grid: answer.grid,
    aggregate: args.aggregate,
    start: args.start,
    end: args.end,
    values: toValues(answer.periods),
  };
  const record = makeRecord<Data>(context.upstream, answer.source, {
    nativeId: `${args.latitude},${args.longitude}:${args.aggregate}:${args.start}/${args.end}`,
    type: 'weather_series',
    title: `${args.aggregate === 'daily' ? 'Daily' : 'Monthly'} weather at ${where}, ${args.start} to ${args.end}`,
    retrievedAt: answer.retrievedAt,
    data,
  });
  const steps = args.aggregate === 'daily' ? count(data.values.length, 'day') : count(data.values.length, 'month');
  const from = answer.source === 'nasa-power' ? 'NASA POWER' : 'Open-Meteo (NASA POWER failed)';
  const summary = `${steps} of gridded model weather (not station records) at ${where} from ${args.start} to ${args.end}, from ${from}${answer.note ? `; ${answer.note}` : ''}.`;
  return join.outcome([record], summary);
};
