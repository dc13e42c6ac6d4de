/**
 * DOAJ journal search: `/search/journals/{query}` with an Elasticsearch query string in the path
 * (`issn:1545-7885`, or `bibjson.title:"…"`). Being listed in DOAJ is having a record here.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { path } from '../upstream/path.ts';

export const SOURCE = 'doaj' as const;

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

export interface DoajJournal {
  id: string;
  title: string;
  issns: string[];
  publisher?: string;
  country?: string;
  hasApc?: boolean;
  apcPrices?: Array<{ currency: string; price: number }>;
  licenses?: string[];
  subjects?: string[];
  homepageUrl?: string;
}

export function parseJournal(record: Json): DoajJournal | undefined {
  const id = str(record.id);
  const bibjson = obj(record.bibjson);
  const title = str(bibjson?.title);
  if (!id || !bibjson || !title) return undefined;
  const apc = obj(bibjson.apc);
  const prices = Array.isArray(apc?.max)
    ? (apc!.max as unknown[])
        .map(obj)
        .flatMap((price) =>
          price && str(price.currency) && typeof price.price === 'number' ? [{ currency: price.currency as string, price: price.price }] : [],
        )
    : [];
  const licenses = Array.isArray(bibjson.license)
    ? (bibjson.license as unknown[]).map((license) => str(obj(license)?.type)).filter((type): type is string => !!type)
    : [];
  const subjects = Array.isArray(bibjson.subject)
    ? (bibjson.subject as unknown[]).map((subject) => str(obj(subject)?.term)).filter((term): term is string => !!term)
    : [];
  return {
    id,
    title,
    issns: [str(bibjson.pissn), str(bibjson.eissn)].filter((issn): issn is string => !!issn),
    publisher: str(obj(bibjson.publisher)?.name),
    country: str(obj(bibjson.publisher)?.country),
    hasApc: typeof apc?.has_apc === 'boolean' ? apc.has_apc : undefined,
    apcPrices: prices.length > 0 ? prices : undefined,
    licenses: licenses.length > 0 ? licenses : undefined,
    subjects: subjects.length > 0 ? subjects : undefined,
    homepageUrl: str(obj(bibjson.ref)?.journal),
  };
}

export function parseSearch(body: unknown): { total: number; journals: DoajJournal[] } {
  const top = obj(body);
  if (!top || !Array.isArray(top.results)) throw new UpstreamError(SOURCE, 'bad_body', 'doaj answered without a results list');
  return {
    total: typeof top.total === 'number' ? top.total : top.results.length,
    journals: (top.results as unknown[]).flatMap((result) => {
      const journal = obj(result) ? parseJournal(result as Json) : undefined;
      return journal ? [journal] : [];
    }),
  };
}

/** Journals by ISSN or by title; the query string is built here, the caller's text quoted. */
export async function searchJournals(
  upstream: UpstreamClient,
  query: { issn?: string; title?: string },
): Promise<{ journals: DoajJournal[]; retrievedAt: string }> {
  const expression = query.issn ? `issn:${query.issn}` : `bibjson.title:"${(query.title ?? '').replace(/["\\]/g, ' ').trim()}"`;
  const answer = await upstream.getJson(SOURCE, { path: path`/search/journals/${expression}`, searchParams: { page: 1, pageSize: 5 } });
  return { journals: parseSearch(answer.body).journals, retrievedAt: answer.retrievedAt };
}
