/**
 * dblp publication search (`/publ/api?q=…&format=json`). Every number is a string; one author is an
 * object, several an array; titles end with a full stop. dblp serves a bot-check HTML page to fast
 * clients: the upstream layer refuses HTML, so that is a failed source, never an empty result.
 * Year and open-access filters are applied afterwards (the `access` field where dblp gives it).
 */
import { normalizeDoi } from '../literature/identifiers.ts';
import type { Paper } from '../literature/paper.ts';
import { decodeEntities } from '../literature/xml.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';

export const SOURCE = 'dblp' as const;

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? decodeEntities(value.trim()) : undefined);
const many = <T>(value: T | T[] | undefined): T[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);

export function parseSearch(body: unknown): { total?: number; papers: Paper[] } {
  const result = obj(obj(body)?.result);
  const hits = obj(result?.hits);
  if (!result || !hits) throw new UpstreamError(SOURCE, 'bad_body', 'dblp answered without a hits object');
  const papers = many(hits.hit as Json[]).flatMap((hit): Paper[] => {
    const info = obj(hit.info);
    const key = str(info?.key);
    if (!info || !key) return [];
    const authors = many(obj(info.authors)?.author as unknown[])
      .map((author) => (typeof author === 'string' ? str(author) : str(obj(author)?.text)))
      .filter((name): name is string => !!name);
    const year = Number(info.year);
    const access = str(info.access);
    const ee = many(info.ee as unknown[])
      .map(str)
      .find(Boolean);
    return [
      {
        nativeId: key,
        url: str(info.url) ?? `https://dblp.org/rec/${key}`,
        title: str(info.title)?.replace(/\.$/, ''),
        doi: normalizeDoi(str(info.doi)),
        authors,
        year: Number.isInteger(year) ? year : undefined,
        venue:
          many(info.venue as unknown[])
            .map(str)
            .filter(Boolean)
            .join(', ') || undefined,
        pages: str(info.pages),
        volume: str(info.volume),
        publicationType: str(info.type),
        isOpenAccess: access === 'open' ? true : access === 'closed' ? false : undefined,
        openAccessUrl: access === 'open' ? ee : undefined,
        dblpKey: key,
      },
    ];
  });
  const total = Number(hits['@total']);
  return { total: Number.isFinite(total) ? total : undefined, papers };
}

export interface PublicationSearch {
  query: string;
  limit: number;
}

export async function searchPublications(upstream: UpstreamClient, search: PublicationSearch): Promise<{ papers: Paper[]; retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, { path: '/publ/api', searchParams: { q: search.query, format: 'json', h: Math.min(100, search.limit), c: 0 } });
  return { papers: parseSearch(answer.body).papers, retrievedAt: answer.retrievedAt };
}
