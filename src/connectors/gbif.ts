/**
 * GBIF: name matching (GET /v2/species/match?scientificName=…, nested `usage` + `diagnostics`; the v1
 * flat shape of /v1/species/match is read as well) and occurrence search
 * (GET /v1/occurrence/search?taxonKey&license=CC0_1_0&license=CC_BY_4_0&hasCoordinate&country&year…).
 * The licence filter takes enum names while each record's `license` is a URL: records are mapped
 * back, and any record outside CC0 / CC BY is dropped even if the filter let it through.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { finite, text } from './json-fields.ts';

export const SOURCE = 'gbif' as const;
/** Licences whose records may be returned, as the search filter names them. */
export const OPEN_LICENSE_FILTER = ['CC0_1_0', 'CC_BY_4_0'];

export interface Taxon {
  key: number;
  canonicalName: string;
  scientificName?: string;
  rank: string;
  matchType: 'EXACT' | 'FUZZY' | 'HIGHERRANK' | 'VERNACULAR';
  confidence?: number;
}

export interface Occurrence {
  key: string;
  scientificName: string;
  latitude?: number;
  longitude?: number;
  coordinateUncertaintyM?: number;
  eventDate?: string;
  year?: number;
  countryCode?: string;
  country?: string;
  basisOfRecord?: string;
  datasetKey?: string;
  datasetName?: string;
  license: 'CC0-1.0' | 'CC-BY-4.0';
}

export interface OccurrenceQuery {
  taxonKey: number;
  country?: string;
  yearFrom?: number;
  yearTo?: number;
  hasCoordinates: boolean;
  limit: number;
}

export async function matchSpecies(upstream: UpstreamClient, name: string): Promise<{ taxon?: Taxon; retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, { path: '/v2/species/match', searchParams: { scientificName: name, verbose: 'false' } });
  return { taxon: parseMatch(answer.body), retrievedAt: answer.retrievedAt };
}

/** GBIF's backbone taxonomy, the checklist whose keys the occurrence search filters by. */
export const BACKBONE_DATASET = 'd7dddbf4-2cf0-4f39-9b2a-bb099caae36c';

/** A common name: the first backbone taxon with that vernacular name (GET /v1/species/search?qField=VERNACULAR). */
export async function searchVernacular(upstream: UpstreamClient, name: string): Promise<{ taxon?: Taxon; retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, {
    path: '/v1/species/search',
    searchParams: { q: name, qField: 'VERNACULAR', datasetKey: BACKBONE_DATASET, limit: 1 },
  });
  return { taxon: parseVernacular(answer.body), retrievedAt: answer.retrievedAt };
}

export function parseVernacular(body: unknown): Taxon | undefined {
  const first = (body as { results?: Array<Record<string, unknown>> })?.results?.[0];
  const key = Number(first?.nubKey ?? first?.key);
  if (!first || !Number.isSafeInteger(key)) return undefined;
  return {
    key,
    canonicalName: text(first.canonicalName) ?? text(first.scientificName) ?? String(key),
    scientificName: text(first.scientificName),
    rank: text(first.rank) ?? 'UNRANKED',
    matchType: 'VERNACULAR',
  };
}

/** The matched taxon of a v2 (nested) or v1 (flat) match answer; undefined for matchType NONE. */
export function parseMatch(body: unknown): Taxon | undefined {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- GBIF answers loose JSON, read field by field
  const root = body as Record<string, any>;
  if (!root || typeof root !== 'object') throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with a name match that is not an object`);
  const nested = root.usage && typeof root.usage === 'object';
  const matchType = text(nested ? root.diagnostics?.matchType : root.matchType) ?? text(root.diagnostics?.matchType);
  const key = Number(nested ? root.usage.key : root.usageKey);
  if (!matchType || matchType === 'NONE' || !Number.isSafeInteger(key)) return undefined;
  const usage = nested ? root.usage : root;
  return {
    key,
    canonicalName: text(usage.canonicalName) ?? text(usage.name) ?? text(usage.scientificName) ?? String(key),
    scientificName: text(nested ? usage.name : usage.scientificName),
    rank: text(usage.rank) ?? 'UNRANKED',
    matchType: matchType as Taxon['matchType'],
    confidence: finite(nested ? root.diagnostics?.confidence : root.confidence),
  };
}

export function occurrenceSearchParams(query: OccurrenceQuery): URLSearchParams {
  const params = new URLSearchParams({ taxonKey: String(query.taxonKey), occurrenceStatus: 'PRESENT', limit: String(query.limit), offset: '0' });
  for (const license of OPEN_LICENSE_FILTER) params.append('license', license);
  if (query.hasCoordinates) {
    params.set('hasCoordinate', 'true');
    params.set('hasGeospatialIssue', 'false');
  }
  if (query.country) params.set('country', query.country.toUpperCase());
  if (query.yearFrom !== undefined || query.yearTo !== undefined) params.set('year', `${query.yearFrom ?? '*'},${query.yearTo ?? '*'}`);
  return params;
}

export async function searchOccurrences(
  upstream: UpstreamClient,
  query: OccurrenceQuery,
): Promise<{ count: number; occurrences: Occurrence[]; retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, { path: '/v1/occurrence/search', searchParams: occurrenceSearchParams(query) });
  return { ...parseOccurrences(answer.body), retrievedAt: answer.retrievedAt };
}

/** A record licence URL (http or https, with or without legalcode) as our licence id; undefined for any other licence. */
export function openLicense(value: unknown): Occurrence['license'] | undefined {
  const url = text(value)?.toLowerCase() ?? '';
  if (/creativecommons\.org\/publicdomain\/zero\/1\.0/.test(url) || url === 'cc0_1_0') return 'CC0-1.0';
  if (/creativecommons\.org\/licenses\/by\/4\.0/.test(url) || url === 'cc_by_4_0') return 'CC-BY-4.0';
  return undefined;
}

export function parseOccurrences(body: unknown): { count: number; occurrences: Occurrence[] } {
  const root = body as { count?: unknown; results?: unknown };
  if (!root || !Array.isArray(root.results)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with an occurrence search without results`);
  const occurrences = (root.results as Array<Record<string, unknown>>).flatMap((record): Occurrence[] => {
    const license = openLicense(record.license);
    const key = record.key ?? record.gbifID;
    if (!license || (typeof key !== 'number' && typeof key !== 'string')) return [];
    return [
      {
        key: String(key),
        scientificName: text(record.scientificName) ?? text(record.acceptedScientificName) ?? '',
        latitude: finite(record.decimalLatitude),
        longitude: finite(record.decimalLongitude),
        coordinateUncertaintyM: finite(record.coordinateUncertaintyInMeters),
        eventDate: text(record.eventDate),
        year: finite(record.year),
        countryCode: text(record.countryCode),
        country: text(record.country),
        basisOfRecord: text(record.basisOfRecord),
        datasetKey: text(record.datasetKey),
        datasetName: text(record.datasetName),
        license,
      },
    ];
  });
  return { count: finite(root.count) ?? occurrences.length, occurrences };
}

export const occurrenceUrl = (key: string) => `https://www.gbif.org/occurrence/${key}`;
