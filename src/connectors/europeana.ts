/**
 * Europeana Search API: GET <base>/search.json?wskey=<key>&query=…&qf=TYPE:<TYPE>&qf=YEAR:[a TO b]
 * &rows=<n ≤ 100>&profile=standard. Almost every item field is an array; the label fields
 * (`edmPlaceLabel`, `edmTimespanLabel`) are arrays of one-entry language maps (`[{"def": "1919"}]`).
 * `success: false` marks an error even on a 200. Each item's `link` and `guid` (and the echoed
 * `apikey`) carry the key: they are never read, logged or returned; the item link given out is the
 * portal page built from the item id.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { clip as clipTo, first, strings, text } from './json-fields.ts';
import type { ArchiveItem, ArchiveQuery, ItemType } from './loc.ts';

export const SOURCE = 'europeana' as const;
const MAX_ROWS = 100;
const SNIPPET_LENGTH = 300;

/** Europeana's TYPE facet for each requested kind (maps are images, newspapers and manuscripts texts). */
const TYPES: Record<ArchiveQuery['type'], string | undefined> = { newspaper: 'TEXT', manuscript: 'TEXT', image: 'IMAGE', map: 'IMAGE', any: undefined };
const ITEM_TYPES: Record<string, ItemType> = { IMAGE: 'image', TEXT: 'text', SOUND: 'sound', VIDEO: 'video', '3D': '3d' };

const clip = (value: string | undefined) => clipTo(value, SNIPPET_LENGTH);

/** The query string (qf repeats, so it is built here); the key is added by the upstream layer. */
export function searchParams(query: ArchiveQuery): URLSearchParams {
  const params = new URLSearchParams({ query: query.query, rows: String(Math.min(query.limit, MAX_ROWS)), profile: 'standard' });
  const type = TYPES[query.type];
  if (type) params.append('qf', `TYPE:${type}`);
  if (query.dateFrom !== undefined || query.dateTo !== undefined) params.append('qf', `YEAR:[${query.dateFrom ?? '*'} TO ${query.dateTo ?? '*'}]`);
  return params;
}

export async function searchRecords(upstream: UpstreamClient, query: ArchiveQuery): Promise<{ total?: number; items: ArchiveItem[]; retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, { path: '/search.json', searchParams: searchParams(query), key: { query: 'wskey' } });
  return { ...parseSearch(answer.body, query.type), retrievedAt: answer.retrievedAt };
}

export const itemUrl = (id: string) => `https://www.europeana.eu/item${id}`;

/** The first label of a label field: a list of one-entry language maps (`[{"def": "Paris"}]`), or plain strings. */
export function firstLabel(value: unknown): string | undefined {
  if (!Array.isArray(value)) return first(value);
  return value.map((entry) => (entry !== null && typeof entry === 'object' ? Object.values(entry).map(first).find(Boolean) : text(entry))).find(Boolean);
}

export function parseSearch(body: unknown, requested: ArchiveQuery['type']): { total?: number; items: ArchiveItem[] } {
  const root = body as { success?: unknown; error?: unknown; items?: unknown; totalResults?: unknown };
  if (root?.success === false) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with an error: ${text(root.error) ?? 'no reason given'}`);
  if (!root || (root.items !== undefined && !Array.isArray(root.items)))
    throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without an items list`);
  const items = ((root.items ?? []) as Array<Record<string, unknown>>).flatMap((item): ArchiveItem[] => {
    const id = text(item.id);
    if (!id?.startsWith('/')) return [];
    const type = ITEM_TYPES[text(item.type) ?? ''] ?? 'other';
    const year = first(item.year);
    return [
      {
        nativeId: id.slice(1),
        itemType:
          (requested === 'newspaper' || requested === 'manuscript' || requested === 'map') && type === (requested === 'map' ? 'image' : 'text')
            ? requested
            : type,
        title: first(item.title),
        date: year,
        year: year && /^\d{4}$/.test(year) ? Number(year) : undefined,
        place: firstLabel(item.edmPlaceLabel) ?? first(item.country),
        creators: strings(item.dcCreator),
        description: clip(first(item.dcDescription)),
        rights: first(item.rights),
        thumbnailUrl: first(item.edmPreview),
        itemUrl: itemUrl(id),
        provider: first(item.dataProvider),
        collection: first(item.edmDatasetName),
        language: strings(item.language),
      },
    ];
  });
  return { total: typeof root.totalResults === 'number' ? root.totalResults : undefined, items };
}
