/**
 * OpenAlex: works (search, one work by id or DOI) and sources (journals). Since 2026-02-13 OpenAlex
 * wants an `api_key` query parameter (SOURCE_OPENALEX_KEY); CONTACT_EMAIL goes along as `mailto`.
 * An unknown id is an HTML 404 page: read as "no such work", not as an error. Abstracts come as an
 * inverted index (word → positions) and are rebuilt here.
 */
import { normalizeDoi, openalexShortId, type PaperId } from '../literature/identifiers.ts';
import type { Paper } from '../literature/paper.ts';
import type { RequestKindOf } from '../../generated/types.ts';
import type { UpstreamClient, UpstreamRequest } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { keepSlashes, path } from '../upstream/path.ts';

export const SOURCE = 'openalex' as const;

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** A request of `kind`, OpenAlex's pricing tier (tools.yaml budget.kinds): singleton (free), list/filter, or search=. */
function request(
  upstream: UpstreamClient,
  kind: RequestKindOf<typeof SOURCE>,
  path: string,
  searchParams: Record<string, string | number | undefined> = {},
): UpstreamRequest<typeof SOURCE> {
  return { path, searchParams: { ...searchParams, mailto: upstream.contactEmail }, key: { query: 'api_key' }, kind };
}

/** A refusal of OpenAlex (401/403: key missing, invalid or out of budget) said plainly. */
function plain(error: unknown): never {
  if (error instanceof UpstreamError && (error.status === 401 || error.status === 403)) {
    throw new UpstreamError(
      SOURCE,
      'http_error',
      `openalex refused the request (HTTP ${error.status}): ${error.message.replace(/^openalex answered HTTP \d+:?\s*/, '') || 'no reason given'}; OpenAlex needs a valid API key in SOURCE_OPENALEX_KEY since February 2026`,
      error.status,
    );
  }
  throw error;
}

/** The abstract as plain text from OpenAlex's inverted index (word → positions). */
export function rebuildAbstract(index: unknown): string | undefined {
  const entries = obj(index);
  if (!entries) return undefined;
  const words: string[] = [];
  for (const [word, positions] of Object.entries(entries)) {
    if (!Array.isArray(positions)) continue;
    for (const position of positions) if (typeof position === 'number') words[position] = word;
  }
  const text = words
    .filter((word) => word !== undefined)
    .join(' ')
    .trim();
  return text === '' ? undefined : text;
}

export function parseWork(work: Json): Paper | undefined {
  const id = openalexShortId(str(work.id));
  if (!id) return undefined;
  const ids = obj(work.ids) ?? {};
  const primary = obj(work.primary_location);
  const source = obj(primary?.source);
  const best = obj(work.best_oa_location);
  const openAccess = obj(work.open_access);
  const biblio = obj(work.biblio) ?? {};
  const first = str(biblio.first_page);
  const last = str(biblio.last_page);
  const pmid = /(\d+)\/?$/.exec(str(ids.pmid) ?? '')?.[1];
  const pmcid = /(PMC\d+)\/?$/i.exec(str(ids.pmcid) ?? '')?.[1]?.toUpperCase();
  const arxivLocation = Array.isArray(work.locations)
    ? (work.locations as unknown[])
        .map(obj)
        .map((location) => str(location?.landing_page_url))
        .find((url) => url && /arxiv\.org\/abs\//.test(url))
    : undefined;
  const authors = Array.isArray(work.authorships)
    ? (work.authorships as unknown[])
        .map((authorship) => str(obj(obj(authorship)?.author)?.display_name) ?? str(obj(authorship)?.raw_author_name))
        .filter((name): name is string => !!name)
    : [];
  const year = num(work.publication_year);
  return {
    nativeId: id,
    url: `https://openalex.org/${id}`,
    title: str(work.title) ?? str(work.display_name),
    doi: normalizeDoi(str(work.doi)),
    authors,
    year,
    publicationDate: str(work.publication_date),
    venue: str(source?.display_name),
    publisher: str(source?.host_organization_name),
    volume: str(biblio.volume),
    issue: str(biblio.issue),
    pages: first && last && first !== last ? `${first}-${last}` : first,
    publicationType: str(work.type),
    citationCount: num(work.cited_by_count),
    isOpenAccess: typeof openAccess?.is_oa === 'boolean' ? (openAccess.is_oa as boolean) : undefined,
    openAccessUrl: str(best?.pdf_url) ?? str(openAccess?.oa_url) ?? str(best?.landing_page_url),
    oaStatus: str(openAccess?.oa_status),
    license: str(best?.license),
    abstract: rebuildAbstract(work.abstract_inverted_index),
    pmid,
    pmcid,
    arxivId: arxivLocation ? /arxiv\.org\/abs\/(.+?)(v\d+)?$/.exec(arxivLocation)?.[1] : undefined,
    openalexId: id,
    isRetracted: typeof work.is_retracted === 'boolean' ? (work.is_retracted as boolean) : undefined,
  };
}

export function parseWorkList(body: unknown): Paper[] {
  const results = obj(body)?.results;
  if (!Array.isArray(results)) throw new UpstreamError(SOURCE, 'bad_body', 'openalex answered without a results list');
  return results.flatMap((work) => {
    const paper = obj(work) ? parseWork(work as Json) : undefined;
    return paper ? [paper] : [];
  });
}

export interface WorkSearch {
  query: string;
  yearFrom?: number;
  yearTo?: number;
  openAccessOnly?: boolean;
  limit: number;
}

/** `/works?search=…` with year and open-access filters pushed down. */
export async function searchWorks(upstream: UpstreamClient, search: WorkSearch): Promise<{ papers: Paper[]; retrievedAt: string }> {
  const filters: string[] = [];
  if (search.yearFrom !== undefined || search.yearTo !== undefined) filters.push(`publication_year:${search.yearFrom ?? ''}-${search.yearTo ?? ''}`);
  if (search.openAccessOnly) filters.push('open_access.is_oa:true');
  const answer = await upstream
    .getJson(
      SOURCE,
      request(upstream, 'search', '/works', {
        search: search.query,
        filter: filters.length > 0 ? filters.join(',') : undefined,
        per_page: Math.min(100, search.limit),
      }),
    )
    .catch(plain);
  return { papers: parseWorkList(answer.body), retrievedAt: answer.retrievedAt };
}

/** One work by OpenAlex id, DOI, PMID or PMCID; undefined when OpenAlex does not know it. */
export async function getWork(upstream: UpstreamClient, id: PaperId): Promise<{ paper?: Paper; retrievedAt: string } | undefined> {
  const route =
    id.kind === 'openalex'
      ? path`/works/${id.value}`
      : id.kind === 'doi'
        ? path`/works/https://doi.org/${keepSlashes(id.value)}`
        : id.kind === 'pmid'
          ? path`/works/pmid:${id.value}`
          : id.kind === 'pmcid'
            ? path`/works/pmcid:${id.value}`
            : path`/works/https://doi.org/10.48550/arXiv.${keepSlashes(id.value.replace(/v\d+$/, ''))}`;
  try {
    const answer = await upstream.getJson<Json, typeof SOURCE>(SOURCE, request(upstream, 'singleton', route));
    const paper = obj(answer.body) ? parseWork(answer.body) : undefined;
    return { paper, retrievedAt: answer.retrievedAt };
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return undefined;
    return plain(error);
  }
}

export interface JournalSource {
  openalexId: string;
  name: string;
  publisher?: string;
  issnL?: string;
  issns: string[];
  isOa?: boolean;
  isInDoaj?: boolean;
  apcUsd?: number;
  apcPrices?: Array<{ currency: string; price: number }>;
  worksCount?: number;
  citedByCount?: number;
  hIndex?: number;
  i10Index?: number;
  twoYearMeanCitedness?: number;
  homepageUrl?: string;
  countryCode?: string;
  subjects?: string[];
  type?: string;
}

export function parseSource(source: Json): JournalSource | undefined {
  const id = /(S\d+)$/.exec(str(source.id) ?? '')?.[1];
  const name = str(source.display_name);
  if (!id || !name) return undefined;
  const stats = obj(source.summary_stats) ?? {};
  const prices = Array.isArray(source.apc_prices)
    ? (source.apc_prices as unknown[])
        .map(obj)
        .flatMap((price) =>
          price && str(price.currency) && num(price.price) !== undefined ? [{ currency: price.currency as string, price: price.price as number }] : [],
        )
    : undefined;
  const topics = Array.isArray(source.topics)
    ? (source.topics as unknown[]).map((topic) => str(obj(topic)?.display_name)).filter((name): name is string => !!name)
    : [];
  return {
    openalexId: id,
    name,
    publisher: str(source.host_organization_name),
    issnL: str(source.issn_l),
    issns: Array.isArray(source.issn) ? (source.issn as unknown[]).filter((issn): issn is string => typeof issn === 'string') : [],
    isOa: typeof source.is_oa === 'boolean' ? source.is_oa : undefined,
    isInDoaj: typeof source.is_in_doaj === 'boolean' ? source.is_in_doaj : undefined,
    apcUsd: num(source.apc_usd),
    apcPrices: prices && prices.length > 0 ? prices : undefined,
    worksCount: num(source.works_count),
    citedByCount: num(source.cited_by_count),
    hIndex: num(stats.h_index),
    i10Index: num(stats.i10_index),
    twoYearMeanCitedness: num(stats['2yr_mean_citedness']),
    homepageUrl: str(source.homepage_url),
    countryCode: str(source.country_code),
    subjects: topics.length > 0 ? topics.slice(0, 5) : undefined,
    type: str(source.type),
  };
}

/** A journal by ISSN (`/sources/issn:…`) or by name (`/sources?search=…`, first journal); undefined when none. */
export async function findSource(
  upstream: UpstreamClient,
  query: { issn?: string; name?: string },
): Promise<{ source?: JournalSource; retrievedAt: string } | undefined> {
  try {
    if (query.issn) {
      const answer = await upstream.getJson<Json, typeof SOURCE>(SOURCE, request(upstream, 'singleton', path`/sources/issn:${query.issn}`));
      return { source: obj(answer.body) ? parseSource(answer.body) : undefined, retrievedAt: answer.retrievedAt };
    }
    const answer = await upstream.getJson<Json, typeof SOURCE>(SOURCE, request(upstream, 'search', '/sources', { search: query.name, per_page: 5 }));
    const results = obj(answer.body)?.results;
    if (!Array.isArray(results)) throw new UpstreamError(SOURCE, 'bad_body', 'openalex answered without a results list');
    const parsed = results.map((result) => (obj(result) ? parseSource(result as Json) : undefined)).filter((source): source is JournalSource => !!source);
    return { source: parsed.find((source) => source.type === 'journal') ?? parsed[0], retrievedAt: answer.retrievedAt };
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return undefined;
    return plain(error);
  }
}
