/**
 * USGS ComCat FDSN event service (GeoJSON): GET <base>/query?format=geojson&starttime&endtime
 * [&latitude&longitude&maxradiuskm][&minmagnitude]&orderby&limit&eventtype=earthquake.
 * Times in the answer are epoch milliseconds; `mag` and `magType` may be null.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';

export const SOURCE = 'usgs-earthquakes' as const;

export interface EventQuery {
  /** ISO 8601 UTC date-times. */
  startTime: string;
  endTime: string;
  latitude?: number;
  longitude?: number;
  radiusKm?: number;
  minMagnitude?: number;
  limit: number;
  order: 'time' | 'magnitude';
}

export interface Earthquake {
  eventId: string;
  magnitude?: number;
  magnitudeType?: string;
  time: string;
  place?: string;
  latitude: number;
  longitude: number;
  depthKm?: number;
  eventUrl: string;
  title?: string;
}

export function eventSearchParams(query: EventQuery): Record<string, string | number | undefined> {
  const circle = query.latitude !== undefined && query.longitude !== undefined;
  return {
    format: 'geojson',
    starttime: query.startTime,
    endtime: query.endTime,
    latitude: circle ? query.latitude : undefined,
    longitude: circle ? query.longitude : undefined,
    maxradiuskm: circle ? query.radiusKm : undefined,
    minmagnitude: query.minMagnitude,
    orderby: query.order === 'magnitude' ? 'magnitude' : 'time',
    limit: query.limit,
    eventtype: 'earthquake',
  };
}

export async function queryEvents(upstream: UpstreamClient, query: EventQuery): Promise<{ events: Earthquake[]; retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, { path: '/query', searchParams: eventSearchParams(query) });
  return { events: parseEventCollection(answer.body), retrievedAt: answer.retrievedAt };
}

interface Feature {
  id?: unknown;
  properties?: Record<string, unknown>;
  geometry?: { coordinates?: unknown[] };
}

/** The events of a GeoJSON FeatureCollection (a 204 / null body is no events). */
export function parseEventCollection(body: unknown): Earthquake[] {
  if (body === null) return [];
  const collection = body as { type?: unknown; features?: unknown };
  if (!collection || collection.type !== 'FeatureCollection' || !Array.isArray(collection.features)) {
    throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with JSON that is not a GeoJSON FeatureCollection`);
  }
  return (collection.features as Feature[]).flatMap((feature) => {
    const properties = feature.properties ?? {};
    const [longitude, latitude, depth] = (feature.geometry?.coordinates ?? []) as unknown[];
    if (typeof feature.id !== 'string' || typeof properties.time !== 'number' || typeof latitude !== 'number' || typeof longitude !== 'number') return [];
    return [
      {
        eventId: feature.id,
        magnitude: typeof properties.mag === 'number' ? properties.mag : undefined,
        magnitudeType: typeof properties.magType === 'string' ? properties.magType : undefined,
        time: new Date(properties.time).toISOString(),
        place: typeof properties.place === 'string' ? properties.place : undefined,
        latitude,
        longitude,
        depthKm: typeof depth === 'number' ? depth : undefined,
        eventUrl: typeof properties.url === 'string' ? properties.url : `https://earthquake.usgs.gov/earthquakes/eventpage/${feature.id}`,
        title: typeof properties.title === 'string' ? properties.title : undefined,
      },
    ];
  });
}
