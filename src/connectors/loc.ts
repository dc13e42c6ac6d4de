/**
 * Library of Congress loc.gov JSON API: GET <base>/<endpoint>/?q=…&fo=json&at=results,pagination&c=<n>&sp=1
 * [&dates=YYYY/YYYY]. Newspapers (with OCR text) are the Chronicling America collection
 * (/collections/chronicling-america/), photos /photos/, maps /maps/, manuscripts /manuscripts/,
 * everything /search/. Most result fields are arrays even when single-valued; image URLs may be
 * protocol-relative; `pagination.of` is the number of results (`pagination.total` is the number of pages).
 * loc.gov blocks a client for 5 minutes after 20 newspaper requests in a minute: the manifest's
 * pacing (one request per 3 s) keeps below it, and answers are cached for a day.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { clip as clipTo, first, strings, text } from './json-fields.ts';

export const SOURCE = 'loc' as const;
const SNIPPET_LENGTH = 300;

export type ArchiveType = 'newspaper' | 'image' | 'manuscript' | 'map' | 'any';
export type ItemType = 'newspaper' | 'image' | 'manuscript' | 'map' | 'text' | 'sound' | 'video' | '3d' | 'other';

export const ENDPOINTS: Record<ArchiveType, string> = {
  newspaper: '/collections/chronicling-america/',
  image: '/photos/',
  manuscript: '/manuscripts/',
  map: '/maps/',
  any: '/search/',
};

export interface ArchiveQuery {
  query: string;
  type: ArchiveType;
  dateFrom?: number;
  dateTo?: number;
  limit: number;
}

/** One item in the shape both archive sources give. */
export interface ArchiveItem {
  nativeId: string;
  itemType: ItemType;
  title?: string;
  date?: string;
  year?: number;
  place?: string;
  creators?: string[];
  description?: string;
  snippet?: string;
  rights?: string;
  thumbnailUrl?: string;
  itemUrl?: string;
  provider?: string;
  collection?: string;
  language?: string[];
}

const clip = (value: string | undefined) => clipTo(value, SNIPPET_LENGTH);

export function searchParams(query: ArchiveQuery): Record<string, string | number | undefined> {
  const dates =
    query.dateFrom !== undefined || query.dateTo !== undefined ? `${query.dateFrom ?? 1000}/${query.dateTo ?? new Date().getUTCFullYear()}` : undefined;
  return { q: query.query, fo: 'json', at: 'results,pagination', c: query.limit, sp: 1, dates };
}

export async function searchItems(upstream: UpstreamClient, query: ArchiveQuery): Promise<{ total?: number; items: ArchiveItem[]; retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, { path: ENDPOINTS[query.type], searchParams: searchParams(query) });
  return { ...parseSearch(answer.body, query.type), retrievedAt: answer.retrievedAt };
}

function itemType(formats: string[], requested: ArchiveType): ItemType {
  const all = formats.join(' ').toLowerCase();
  if (/newspaper/.test(all)) return 'newspaper';
  if (/\bmap/.test(all)) return 'map';
  if (/manuscript/.test(all)) return 'manuscript';
  if (/photo|print|drawing|image/.test(all)) return 'image';
  if (/book|periodical|text/.test(all)) return 'text';
  if (/audio|sound/.test(all)) return 'sound';
  if (/film|video/.test(all)) return 'video';
  return requested === 'any' ? 'other' : requested;
}

/** `http://www.loc.gov/item/2016652645/` → `item/2016652645`; a newspaper page keeps its page (`…/ed-1?sp=1`), not the echoed query. */
function nativeId(id: string): string {
  const url = new URL(id, 'https://www.loc.gov/');
  const page = url.searchParams.get('sp');
  return `${url.pathname.replace(/^\/+|\/+$/g, '')}${page ? `?sp=${page}` : ''}`;
}

const absolute = (url: string | undefined) => (url?.startsWith('//') ? `https:${url}` : url);

export function parseSearch(body: unknown, requested: ArchiveType): { total?: number; items: ArchiveItem[] } {
  const root = body as { results?: unknown; pagination?: { of?: unknown } };
  if (!root || !Array.isArray(root.results)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without a results list`);
  const items = (root.results as Array<Record<string, unknown>>).flatMap((result): ArchiveItem[] => {
    const id = text(result.id) ?? text(result.url);
    if (!id) return [];
    const formats = [...(strings(result.original_format) ?? []), ...(strings(result.online_format) ?? [])];
    const type = itemType(formats, requested);
    const date = text(result.date) ?? first(result.dates);
    const year = /\d{4}/.exec(date ?? '')?.[0];
    const description = first(result.description);
    const fullText = first(result.full_text);
    return [
      {
        nativeId: nativeId(id),
        itemType: type,
        title: first(result.title),
        date,
        year: year === undefined ? undefined : Number(year),
        place: first(result.location),
        creators: strings(result.contributor),
        description: type === 'newspaper' ? undefined : clip(description),
        snippet: clip(fullText ?? (type === 'newspaper' ? description : undefined)),
        rights: first(result.rights_advisory) ?? first(result.rights),
        thumbnailUrl: absolute(first(result.image_url)),
        itemUrl: absolute(text(result.url) ?? id),
        provider: 'Library of Congress',
        collection: first(result.partof_title) ?? first(result.partof),
        language: strings(result.language),
      },
    ];
  });
  const of = root.pagination?.of;
  return { total: typeof of === 'number' ? of : undefined, items };
}
