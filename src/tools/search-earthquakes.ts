/** search_earthquakes: the USGS ComCat event search; the default window (30 days up to now) is computed per call. */
import type { ToolHandler } from '../../generated/routes.ts';
import type { SearchEarthquakesArgs, SearchEarthquakesData } from '../../generated/types.ts';
import { queryEvents, SOURCE, type EventQuery } from '../connectors/usgs-earthquakes.ts';
import type { ToolContext } from './context.ts';
import { assemble, count, fanOut, makeRecord } from './result.ts';

const DEFAULT_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

/** UTC date-time to the second, without a zone, as the FDSN service takes it (UTC is assumed). */
const fdsnTime = (time: Date): string => time.toISOString().slice(0, 19);

/** The upstream query of a call made at `now`: start defaults to 30 days earlier, end to now; an end date is inclusive. */
export function eventQuery(args: SearchEarthquakesArgs, now: Date): EventQuery {
  return {
    startTime: args.start !== undefined ? `${args.start}T00:00:00` : fdsnTime(new Date(now.getTime() - DEFAULT_WINDOW_DAYS * DAY_MS)),
    endTime: args.end !== undefined ? `${args.end}T23:59:59` : fdsnTime(now),
    latitude: args.latitude,
    longitude: args.longitude,
    radiusKm: args.latitude !== undefined && args.longitude !== undefined ? args.radius_km : undefined,
    minMagnitude: args.min_magnitude,
    limit: args.limit,
    order: args.order,
  };
}

function describe(args: SearchEarthquakesArgs, query: EventQuery): string {
  const where = args.latitude !== undefined && args.longitude !== undefined ? ` within ${args.radius_km} km of ${args.latitude}, ${args.longitude}` : '';
  const magnitude = args.min_magnitude !== undefined ? ` of magnitude ${args.min_magnitude} or more` : '';
  const from = args.start ?? query.startTime.slice(0, 10);
  const to = args.end ?? query.endTime.slice(0, 10);
  return `${magnitude}${where} from ${from} to ${to}`;
}

export const searchEarthquakes: ToolHandler<SearchEarthquakesArgs, SearchEarthquakesData, ToolContext> = async (args, context) => {
  const query = eventQuery(args, new Date());
  const fan = await fanOut([{ source: SOURCE, run: () => queryEvents(context.upstream, query) }], (source, error) =>
    context.logger.error({ err: error, source }, 'connector failed unexpectedly'),
  );
  const answer = fan.answered[0]?.value;
  const records = (answer?.events ?? []).map((event) =>
    makeRecord<SearchEarthquakesData>(context.upstream, SOURCE, {
      nativeId: event.eventId,
      type: 'earthquake',
      title: event.title,
      url: event.eventUrl,
      retrievedAt: answer!.retrievedAt,
      data: {
        event_id: event.eventId,
        magnitude: event.magnitude,
        magnitude_type: event.magnitudeType,
        time: event.time,
        place: event.place,
        latitude: event.latitude,
        longitude: event.longitude,
        depth_km: event.depthKm,
        event_url: event.eventUrl,
      },
    }),
  );
  const order = args.order === 'magnitude' ? 'largest first' : 'newest first';
  return assemble(fan, records, `${count(records.length, 'earthquake')}${describe(args, query)}, ${order}.`);
};
