/**
 * Europe PMC search (`/search?query=…&format=json&resultType=core`), used by get_paper to resolve
 * PMC ids (`PMCID:PMC…`). Flags are "Y"/"N" strings; abstracts can hold HTML tags.
 */
import { normalizeDoi, normalizePmcid } from '../literature/identifiers.ts';
import type { Paper } from '../literature/paper.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';

export const SOURCE = 'europepmc' as const;

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

export function parseResult(item: Json): Paper | undefined {
  const id = str(item.id);
  const source = str(item.source);
  if (!id || !source) return undefined;
  const journal = obj(item.journalInfo);
  const authors = Array.isArray(obj(item.authorList)?.author)
    ? ((obj(item.authorList)!.author as unknown[]).map((author) => str(obj(author)?.fullName)).filter(Boolean) as string[])
    : (str(item.authorString)?.replace(/\.$/, '').split(/,\s*/) ?? []);
  const urls = Array.isArray(obj(item.fullTextUrlList)?.fullTextUrl) ? (obj(item.fullTextUrlList)!.fullTextUrl as unknown[]).map(obj) : [];
  const free = urls.find((url) => url?.availabilityCode === 'OA' || url?.availabilityCode === 'F');
  const pmcid = normalizePmcid(str(item.pmcid));
  const year = Number(item.pubYear);
  const date = str(journal?.printPublicationDate) ?? str(item.firstPublicationDate);
  return {
    nativeId: `${source}/${id}`,
    url: `https://europepmc.org/article/${source}/${id}`,
    title: str(item.title)?.replace(/\.$/, ''),
    doi: normalizeDoi(str(item.doi)),
    authors,
    year: Number.isInteger(year) ? year : undefined,
    publicationDate: date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : undefined,
    venue: str(obj(journal?.journal)?.title) ?? str(item.journalTitle),
    volume: str(journal?.volume),
    issue: str(journal?.issue),
    pages: str(item.pageInfo),
    publicationType: Array.isArray(obj(item.pubTypeList)?.pubType) ? str((obj(item.pubTypeList)!.pubType as unknown[])[0]) : undefined,
    citationCount: typeof item.citedByCount === 'number' ? item.citedByCount : undefined,
    isOpenAccess: item.isOpenAccess === 'Y' ? true : item.isOpenAccess === 'N' ? false : undefined,
    openAccessUrl: str(free?.url) ?? (pmcid && item.isOpenAccess === 'Y' ? `https://europepmc.org/article/PMC/${pmcid}` : undefined),
    license: str(item.license),
    abstract: str(item.abstractText)
      ?.replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
    pmid: str(item.pmid),
    pmcid,
  };
}

export function parseSearch(body: unknown): { total: number; papers: Paper[] } {
  const top = obj(body);
  const results = obj(top?.resultList)?.result;
  if (!top || !Array.isArray(results)) throw new UpstreamError(SOURCE, 'bad_body', 'europepmc answered without a result list');
  return {
    total: Number(top.hitCount ?? 0),
    papers: results.flatMap((item) => {
      const paper = obj(item) ? parseResult(item as Json) : undefined;
      return paper ? [paper] : [];
    }),
  };
}

/** One article by PMC id; undefined when Europe PMC does not know it. */
export async function getByPmcid(upstream: UpstreamClient, pmcid: string): Promise<{ paper?: Paper; retrievedAt: string } | undefined> {
  const answer = await upstream.getJson(SOURCE, {
    path: '/search',
    searchParams: { query: `PMCID:${pmcid}`, format: 'json', resultType: 'core', pageSize: 1 },
  });
  const paper = parseSearch(answer.body).papers.find((candidate) => candidate.pmcid === pmcid);
  return paper ? { paper, retrievedAt: answer.retrievedAt } : undefined;
}
