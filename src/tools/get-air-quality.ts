/**
 * get_air_quality: OpenAQ stations within radius_km of the point, nearest first, and for each the
 * daily means of the requested pollutants over the period. Daily means outside physical bounds are
 * dropped and counted. At most MAX_STATIONS stations are read, so that the sensor calls stay within
 * OpenAQ's request budget.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { GetAirQualityArgs, GetAirQualityData } from '../../generated/types.ts';
import * as openaq from '../connectors/openaq.ts';
import { Join } from '../life/parts.ts';
import type { ToolContext } from './context.ts';
import { count, makeRecord } from './result.ts';

type Data = GetAirQualityData;
type Series = NonNullable<Data['series']>[number];

export const MAX_STATIONS = 5;
const DEFAULT_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

export const getAirQuality: ToolHandler<GetAirQualityArgs, Data, ToolContext> = async (args, context) => {
  const upstream = context.upstream;
  const end = args.end ?? isoDay(Date.now());
  const start = args.start ?? isoDay(Date.parse(end) - DEFAULT_WINDOW_DAYS * DAY_MS);
  const wanted = new Set(args.pollutants);
  const join = new Join((source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'));

  const found = await join.attempt(openaq.SOURCE, 'stations', () =>
    openaq.searchLocations(upstream, { latitude: args.latitude, longitude: args.longitude, radiusKm: args.radius_km }),
  );
  const measuring = (found?.stations ?? []).filter((station) => station.sensors.some((sensor) => wanted.has(sensor.pollutant)));
  const stations = measuring.slice(0, MAX_STATIONS);

  let dropped = 0;
  const records = await Promise.all(
    stations.map(async (station) => {
      // One sensor per pollutant: the station's first for it.
      const sensors = [
        ...new Map(
          station.sensors
            .filter((sensor) => wanted.has(sensor.pollutant))
            .reverse()
            .map((sensor) => [sensor.pollutant, sensor]),
        ).values(),
      ].reverse();
      const series = await Promise.all(
        sensors.map(async (sensor): Promise<Series | undefined> => {
          const answer = await join.attempt(openaq.SOURCE, `daily ${sensor.pollutant} means of station ${station.id}`, () =>
            openaq.getSensorDays(upstream, sensor.id, start, end),
          );
          if (!answer) return undefined;
          const kept = answer.days.filter((day) => openaq.withinPhysicalBounds(sensor.pollutant, sensor.unit, day.mean));
          const outside = answer.days.length - kept.length;
          dropped += outside;
          return {
            pollutant: sensor.pollutant,
            sensor_id: sensor.id,
            unit: sensor.unit,
            values: kept.map((day) => ({ date: day.date, mean: day.mean, coverage_pct: day.coveragePct })),
            dropped_values: outside > 0 ? outside : undefined,
          };
        }),
      );
      return makeRecord<Data>(upstream, openaq.SOURCE, {
        nativeId: String(station.id),
        type: 'air_quality_station',
        title: station.name,
        url: `https://explore.openaq.org/locations/${station.id}`,
        retrievedAt: found!.retrievedAt,
        data: {
          location_id: station.id,
          name: station.name,
          locality: station.locality,
          country_code: station.countryCode,
          latitude: station.latitude,
          longitude: station.longitude,
          distance_km: station.distanceKm,
          provider: station.provider,
          licenses: station.licenses.length > 0 ? station.licenses : undefined,
          series: series.filter((entry): entry is Series => entry !== undefined),
        },
      });
    }),
  );

  const more = measuring.length > stations.length ? ` (the nearest ${MAX_STATIONS} of ${measuring.length})` : '';
  const droppedNote = dropped > 0 ? `; ${count(dropped, 'daily mean')} outside physical bounds dropped` : '';
  const summary = `${count(records.length, 'station')}${more} within ${args.radius_km} km of ${args.latitude}, ${args.longitude} measuring ${args.pollutants.join(', ')}, daily means from ${start} to ${end}, nearest first${droppedNote}.`;
  return join.outcome(records, summary);
};
