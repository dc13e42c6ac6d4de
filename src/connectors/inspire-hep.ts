/**
 * INSPIRE-HEP literature search (`/literature?q=…`, most relevant first when a query is given).
 * The year range goes into the INSPIRE query as `date` conditions and is checked again afterwards.
 */
import { normalizeArxivId, normalizeDoi } from '../literature/identifiers.ts';
import type { Paper } from '../literature/paper.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';

export const SOURCE = 'inspire-hep' as const;

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value.map(obj).filter(Boolean) as Json[]) : []);

export function parseRecord(metadata: Json): Paper | undefined {
  const control = metadata.control_number;
  if (typeof control !== 'number' && typeof control !== 'string') return undefined;
  const id = String(control);
  const publication = list(metadata.publication_info)[0];
  const date = str(metadata.earliest_date) ?? str(metadata.preprint_date);
  const year = typeof publication?.year === 'number' ? publication.year : date ? Number(date.slice(0, 4)) : undefined;
  const arxiv = normalizeArxivId(str(list(metadata.arxiv_eprints)[0]?.value));
  const pageStart = str(publication?.page_start);
  const pageEnd = str(publication?.page_end);
  return {
    nativeId: id,
    url: `https://inspirehep.net/literature/${id}`,
    title: str(list(metadata.titles)[0]?.title),
    doi: normalizeDoi(str(list(metadata.dois)[0]?.value)),
    authors: list(metadata.authors)
      .map((author) => str(author.full_name))
      .filter((name): name is string => !!name),
    year: Number.isInteger(year) ? year : undefined,
    publicationDate: date && /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : undefined,
    venue: str(publication?.journal_title),
    volume: str(publication?.journal_volume),
    pages: pageStart ? (pageEnd ? `${pageStart}-${pageEnd}` : pageStart) : str(publication?.artid),
    publicationType: Array.isArray(metadata.document_type) ? str(metadata.document_type[0]) : undefined,
    citationCount: typeof metadata.citation_count === 'number' ? metadata.citation_count : undefined,
    abstract: str(list(metadata.abstracts)[0]?.value),
    arxivId: arxiv,
    isOpenAccess: arxiv ? true : undefined,
    openAccessUrl: arxiv ? `https://arxiv.org/pdf/${arxiv}` : undefined,
    inspireId: id,
  };
}

export function parseSearch(body: unknown): Paper[] {
  const hits = obj(obj(body)?.hits)?.hits;
  if (!Array.isArray(hits)) throw new UpstreamError(SOURCE, 'bad_body', 'inspire-hep answered without a list of hits');
  return hits.flatMap((hit) => {
    const metadata = obj(obj(hit)?.metadata);
    const paper = metadata ? parseRecord(metadata) : undefined;
    return paper ? [paper] : [];
  });
}

export interface LiteratureSearch {
  query: string;
  yearFrom?: number;
  yearTo?: number;
  limit: number;
}

export async function searchLiterature(upstream: UpstreamClient, search: LiteratureSearch): Promise<{ papers: Paper[]; retrievedAt: string }> {
  let q = search.query;
  if (search.yearFrom !== undefined) q += ` and date > ${search.yearFrom - 1}`;
  if (search.yearTo !== undefined) q += ` and date < ${search.yearTo + 1}`;
  const answer = await upstream.getJson(SOURCE, { path: '/literature', searchParams: { q, size: Math.min(100, search.limit) } });
  return { papers: parseSearch(answer.body), retrievedAt: answer.retrievedAt };
}
