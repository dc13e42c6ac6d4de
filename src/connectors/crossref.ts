/**
 * Crossref REST API: works search (free text, or `query.bibliographic` for citation matching), one
 * work by DOI (with its `updated-by` notices, which carry Retraction Watch data since 2025), and
 * journals by ISSN. CONTACT_EMAIL goes as `mailto` (polite pool). An unknown DOI or ISSN is a
 * plain-text 404 "Resource not found.": read as "not known", not as an error.
 */
import { normalizeDoi } from '../literature/identifiers.ts';
import type { Notice, Paper } from '../literature/paper.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { keepSlashes, path } from '../upstream/path.ts';

export const SOURCE = 'crossref' as const;

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const first = (value: unknown): string | undefined => (Array.isArray(value) ? str(value[0]) : str(value));
const stripTags = (text: string | undefined) =>
  text
    ?.replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim() || undefined;

/** `{date-parts: [[2012, 3, 21]]}` → [2012, 3, 21]. */
function dateParts(value: unknown): number[] | undefined {
  const parts = obj(value)?.['date-parts'];
  const row = Array.isArray(parts) ? parts[0] : undefined;
  return Array.isArray(row) && typeof row[0] === 'number' ? (row.filter((part) => typeof part === 'number') as number[]) : undefined;
}

function isoDate(parts: number[] | undefined): string | undefined {
  if (!parts || parts.length < 3) return undefined;
  return `${parts[0]}-${String(parts[1]).padStart(2, '0')}-${String(parts[2]).padStart(2, '0')}`;
}

const NOTICE_TYPES: Record<string, Notice['type']> = {
  retraction: 'retraction',
  partial_retraction: 'partial_retraction',
  'partial-retraction': 'partial_retraction',
  withdrawal: 'withdrawal',
  removal: 'removal',
  expression_of_concern: 'expression_of_concern',
  'expression-of-concern': 'expression_of_concern',
  correction: 'correction',
  erratum: 'correction',
  corrigendum: 'correction',
  addendum: 'correction',
};

/** Notices of `updated-by` that matter (retractions, withdrawals, concerns, corrections); new versions and self-references are skipped. */
export function parseNotices(work: Json): Notice[] {
  const own = normalizeDoi(str(work.DOI));
  const entries = Array.isArray(work['updated-by']) ? (work['updated-by'] as unknown[]) : [];
  const notices: Notice[] = [];
  for (const entry of entries.map(obj)) {
    if (!entry) continue;
    const type = NOTICE_TYPES[(str(entry.type) ?? '').toLowerCase()];
    const doi = normalizeDoi(str(entry.DOI));
    if (!type || (doi && doi === own)) continue;
    const parts = dateParts(entry.updated);
    notices.push({
      type,
      doi,
      date: isoDate(parts) ?? str(obj(entry.updated)?.['date-time'])?.slice(0, 10),
      source: str(entry.source),
      label: str(entry.label),
    });
  }
  return notices;
}

/** Print and online years that differ from the issued one (a paper online in December, in print in January). */
function otherYears(work: Json, year: number | undefined): { otherYears?: number[] } {
  const years = [dateParts(work['published-print'])?.[0], dateParts(work['published-online'])?.[0]].filter(
    (value): value is number => value !== undefined && value !== year,
  );
  return years.length > 0 ? { otherYears: [...new Set(years)] } : {};
}

/** The work is a notice about another work: its `update-to` names another DOI with a notice type. */
function updatesAnother(work: Json, own: string): boolean {
  const entries = Array.isArray(work['update-to']) ? (work['update-to'] as unknown[]) : [];
  return entries
    .map(obj)
    .some((entry) => entry !== undefined && NOTICE_TYPES[(str(entry.type) ?? '').toLowerCase()] !== undefined && normalizeDoi(str(entry.DOI)) !== own);
}

export function parseWork(work: Json): Paper | undefined {
  const doi = normalizeDoi(str(work.DOI));
  if (!doi) return undefined;
  const authors = Array.isArray(work.author)
    ? (work.author as unknown[])
        .map(obj)
        .map((author) => (author ? [str(author.given), str(author.family)].filter(Boolean).join(' ') || str(author.name) : undefined))
        .filter((name): name is string => !!name)
    : [];
  const issued = dateParts(work.issued) ?? dateParts(work.published) ?? dateParts(work['published-print']) ?? dateParts(work['published-online']);
  const licenses = Array.isArray(work.license) ? (work.license as unknown[]).map((license) => str(obj(license)?.URL)).filter(Boolean) : [];
  const notices = parseNotices(work);
  return {
    nativeId: doi,
    url: `https://doi.org/${doi}`,
    title: stripTags(first(work.title)),
    doi,
    authors,
    year: issued?.[0],
    publicationDate: isoDate(issued),
    venue: first(work['container-title']),
    publisher: str(work.publisher),
    volume: str(work.volume),
    issue: str(work.issue),
    // Article-numbered journals (BMC, Nature Communications, eLife…) give the article number instead of pages.
    pages: str(work.page) ?? str(work['article-number']),
    publicationType: str(work.type),
    citationCount: num(work['is-referenced-by-count']),
    license: licenses[0],
    abstract: stripTags(str(work.abstract)?.replace(/<jats:title>[^<]*<\/jats:title>/g, ' ')),
    isRetracted: notices.some(
      (notice) => notice.type === 'retraction' || notice.type === 'partial_retraction' || notice.type === 'withdrawal' || notice.type === 'removal',
    ),
    notices,
    ...(updatesAnother(work, doi) ? { isUpdateNotice: true } : {}),
    ...otherYears(work, issued?.[0]),
  };
}

export function parseWorkList(body: unknown): Array<Paper & { score?: number }> {
  const message = obj(obj(body)?.message);
  const items = message?.items;
  if (!Array.isArray(items)) throw new UpstreamError(SOURCE, 'bad_body', 'crossref answered without a list of items');
  return items.flatMap((item) => {
    const work = obj(item);
    const paper = work ? parseWork(work) : undefined;
    return paper ? [{ ...paper, score: num(work!.score) }] : [];
  });
}

export interface WorkSearch {
  query: string;
  yearFrom?: number;
  yearTo?: number;
  limit: number;
}

/** `/works?query=…` with the year range pushed down as from-/until-pub-date filters. */
export async function searchWorks(upstream: UpstreamClient, search: WorkSearch): Promise<{ papers: Paper[]; retrievedAt: string }> {
  const filters: string[] = [];
  if (search.yearFrom !== undefined) filters.push(`from-pub-date:${search.yearFrom}`);
  if (search.yearTo !== undefined) filters.push(`until-pub-date:${search.yearTo}`);
  const answer = await upstream.getJson(SOURCE, {
    path: '/works',
    searchParams: {
      query: search.query,
      filter: filters.length > 0 ? filters.join(',') : undefined,
      rows: Math.min(100, search.limit),
      mailto: upstream.contactEmail,
    },
  });
  return { papers: parseWorkList(answer.body), retrievedAt: answer.retrievedAt };
}

/** Candidates for a citation: `query.bibliographic` (Crossref's own reference matcher), best first. */
export async function searchBibliographic(
  upstream: UpstreamClient,
  citation: string,
  rows = 3,
): Promise<{ papers: Array<Paper & { score?: number }>; retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, { path: '/works', searchParams: { 'query.bibliographic': citation, rows, mailto: upstream.contactEmail } });
  return { papers: parseWorkList(answer.body), retrievedAt: answer.retrievedAt };
}

/** One work by DOI; undefined when Crossref does not know the DOI. */
export async function getWork(upstream: UpstreamClient, doi: string): Promise<{ paper?: Paper; retrievedAt: string } | undefined> {
  try {
    const answer = await upstream.getJson(SOURCE, { path: path`/works/${keepSlashes(doi)}`, searchParams: { mailto: upstream.contactEmail } });
    const message = obj(obj(answer.body)?.message);
    return { paper: message ? parseWork(message) : undefined, retrievedAt: answer.retrievedAt };
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return undefined;
    throw error;
  }
}

export interface CrossrefJournal {
  title: string;
  publisher?: string;
  issns: string[];
  subjects?: string[];
  totalDois?: number;
}

export function parseJournal(body: unknown): CrossrefJournal | undefined {
  const message = obj(obj(body)?.message);
  const title = str(message?.title);
  if (!message || !title) return undefined;
  const subjects = Array.isArray(message.subjects)
    ? (message.subjects as unknown[]).map((subject) => str(obj(subject)?.name)).filter((name): name is string => !!name)
    : [];
  return {
    title,
    publisher: str(message.publisher),
    issns: Array.isArray(message.ISSN) ? (message.ISSN as unknown[]).filter((issn): issn is string => typeof issn === 'string') : [],
    subjects: subjects.length > 0 ? subjects : undefined,
    totalDois: num(obj(message.counts)?.['total-dois']),
  };
}

/** A journal by ISSN; undefined when Crossref does not know it. */
export async function getJournal(upstream: UpstreamClient, issn: string): Promise<{ journal?: CrossrefJournal; retrievedAt: string } | undefined> {
  try {
    const answer = await upstream.getJson(SOURCE, { path: path`/journals/${issn}`, searchParams: { mailto: upstream.contactEmail } });
    return { journal: parseJournal(answer.body), retrievedAt: answer.retrievedAt };
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return undefined;
    throw error;
  }
}
