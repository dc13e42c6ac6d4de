/**
 * ERIC (Education Resources Information Center): one Solr search endpoint, `?search=…&format=json`.
 * The year range is pushed down as `publicationdateyear:[a TO b]` and full text as `e_fulltextauth:1`.
 * `fields=` names every field read here: without it the answer leaves some out (`source`,
 * `e_fulltextauth`), so a journal or the full-text flag would go missing.
 */
import type { Paper } from '../literature/paper.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';

export const SOURCE = 'eric' as const;

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

export function parseSearch(body: unknown): { total?: number; papers: Paper[] } {
  const response = obj(obj(body)?.response);
  if (!response || !Array.isArray(response.docs)) throw new UpstreamError(SOURCE, 'bad_body', 'eric answered without a list of documents');
  const papers = (response.docs as unknown[]).flatMap((item): Paper[] => {
    const doc = obj(item);
    const id = str(doc?.id);
    if (!doc || !id) return [];
    const year = typeof doc.publicationdateyear === 'number' ? doc.publicationdateyear : Number(doc.publicationdateyear);
    return [
      {
        nativeId: id,
        url: `https://eric.ed.gov/?id=${id}`,
        title: str(doc.title),
        authors: Array.isArray(doc.author) ? doc.author.filter((name): name is string => typeof name === 'string') : [],
        year: Number.isInteger(year) ? year : undefined,
        // Journal articles name their journal first in `publisher` when no `source` is given.
        venue:
          str(doc.source) ??
          (Array.isArray(doc.publicationtype) && doc.publicationtype.includes('Journal Articles') ? str(doc.publisher)?.split('. ')[0] : undefined),
        publicationType: Array.isArray(doc.publicationtype) ? str(doc.publicationtype[0]) : undefined,
        abstract: str(doc.description),
        isOpenAccess: doc.e_fulltextauth === 1 || doc.e_fulltextauth === '1' ? true : undefined,
        ericId: id,
      },
    ];
  });
  return { total: typeof response.numFound === 'number' ? response.numFound : undefined, papers };
}

/** The fields parseSearch reads, asked for by name. */
export const FIELDS = ['id', 'title', 'author', 'publicationdateyear', 'source', 'publicationtype', 'publisher', 'description', 'e_fulltextauth'] as const;

export interface RecordSearch {
  query: string;
  yearFrom?: number;
  yearTo?: number;
  openAccessOnly?: boolean;
  limit: number;
}

export async function searchRecords(upstream: UpstreamClient, search: RecordSearch): Promise<{ papers: Paper[]; retrievedAt: string }> {
  let query = `(${search.query})`;
  if (search.yearFrom !== undefined || search.yearTo !== undefined) query += ` AND publicationdateyear:[${search.yearFrom ?? '*'} TO ${search.yearTo ?? '*'}]`;
  if (search.openAccessOnly) query += ' AND e_fulltextauth:1';
  const answer = await upstream.getJson(SOURCE, {
    path: '/',
    searchParams: { search: query, fields: FIELDS.join(','), format: 'json', start: 0, rows: Math.min(100, search.limit) },
  });
  return { papers: parseSearch(answer.body).papers, retrievedAt: answer.retrievedAt };
}
