/**
 * Fake Crossref and OpenAlex for the verify_references evaluation: a real HTTP server on 127.0.0.1
 * serving the evaluation's real papers in the two APIs' own JSON shapes (see the recordings in
 * test/recordings/crossref and /openalex):
 * - Crossref `/works?query.bibliographic=` and OpenAlex `/works?filter=title.search:` / `?search=`
 *   rank the whole index by the words the query shares with each record (rarer words weigh more),
 *   and answer the top `rows` / `per_page` records however weakly they match, as the real
 *   engines do;
 * - `/works/{doi}` (Crossref) and `/works/https://doi.org/{doi}` (OpenAlex) answer one record, or
 *   the plain-text / HTML 404 the real services send;
 * - arXiv preprints (DataCite DOIs) and works without a DOI exist only in OpenAlex; a bioRxiv
 *   preprint is Crossref `posted-content` without a container title; a single page ("e98679",
 *   "15") is Crossref's `article-number`; a retracted paper carries the index's title prefix and
 *   `updated-by` retraction entries (publisher and Retraction Watch), and its notice is a record of
 *   its own with `update-to` (OpenAlex type `retraction`);
 * - one article in seven is registered the way publishers often do, unlike its citations: title in
 *   Title Case, journal without its leading "The", and published online the year before its print
 *   issue (Crossref `issued` and OpenAlex `publication_year` give the online year; Crossref's
 *   `published-print` the cited one).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { normalizeText } from '../../../src/literature/paper.ts';
import { loadPapers, type EvalPaper } from './papers.ts';

/** One record of the index: a paper, or the retraction notice of one. */
interface IndexRecord {
  paper: EvalPaper;
  notice: boolean;
  openalexId: string;
}

const tokens = (text: string) =>
  normalizeText(text)
    .split(' ')
    .filter((word) => word.length > 1);

/** Registered unlike its citations (see above). */
const registeredDifferently = (paper: EvalPaper) => paper.id % 7 === 3 && paper.kind === 'article' && paper.volume !== undefined && !paper.retraction;

const titleCase = (title: string) =>
  title.replace(/(^|[\s(-])([a-z])(?=[a-z]{3,})/g, (_, before: string, letter: string) => `${before}${letter.toUpperCase()}`);

function titleOf(record: IndexRecord): string {
  if (record.notice) return record.paper.retraction!.noticeTitle;
  if (registeredDifferently(record.paper)) return titleCase(record.paper.title);
  return record.paper.retraction?.indexTitle ?? record.paper.title;
}

/** The year the index gives: the online year for papers registered differently. */
function indexYear(record: IndexRecord): number {
  if (record.notice) return record.paper.retraction!.noticeYear;
  return registeredDifferently(record.paper) ? record.paper.year - 1 : record.paper.year;
}

function venueOf(paper: EvalPaper): string {
  return registeredDifferently(paper) ? paper.venue.replace(/^The /, '') : paper.venue;
}

function doiOf(record: IndexRecord): string | undefined {
  return record.notice ? record.paper.retraction!.noticeDoi : record.paper.doi;
}

function inCrossref(record: IndexRecord): boolean {
  return doiOf(record) !== undefined && !doiOf(record)!.startsWith('10.48550/');
}

function dateParts(year: number) {
  return { 'date-parts': [[year]] };
}

function crossrefItem(record: IndexRecord, score?: number): Record<string, unknown> {
  const { paper } = record;
  const doi = doiOf(record)!;
  const year = indexYear(record);
  const item: Record<string, unknown> = {
    DOI: doi,
    URL: `https://doi.org/${doi}`,
    type: record.notice
      ? 'journal-article'
      : paper.kind === 'proceedings'
        ? 'proceedings-article'
        : paper.kind === 'posted'
          ? 'posted-content'
          : 'journal-article',
    title: [titleOf(record)],
    issued: dateParts(year),
    published: dateParts(year),
    'published-online': dateParts(year),
    'is-referenced-by-count': 10,
    publisher: 'Eval Publisher',
  };
  if (!record.notice) {
    item.author = paper.authors.map((author, index) => ({
      given: author.given || undefined,
      family: author.family,
      sequence: index === 0 ? 'first' : 'additional',
      affiliation: [],
    }));
    if (paper.kind === 'posted') item.institution = [{ name: 'bioRxiv' }];
    else item['container-title'] = [venueOf(paper)];
    if (!record.notice) item['published-print'] = dateParts(paper.year);
    if (paper.volume) item.volume = paper.volume;
    if (paper.issue) item.issue = paper.issue;
    if (paper.pages?.includes('-')) item.page = paper.pages;
    else if (paper.pages) item['article-number'] = paper.pages;
    if (paper.retraction) {
      const entry = (source: string) => ({
        DOI: paper.retraction!.noticeDoi,
        type: 'retraction',
        label: 'Retraction',
        source,
        updated: { 'date-parts': [[paper.retraction!.noticeYear, 1, 1]], 'date-time': `${paper.retraction!.noticeYear}-01-01T00:00:00Z` },
      });
      item['updated-by'] = [entry('publisher'), { ...entry('retraction-watch'), 'record-id': String(20000 + paper.id) }];
    }
  } else {
    item['container-title'] = [paper.venue];
    item['update-to'] = [{ DOI: paper.doi, type: 'retraction', label: 'Retraction', source: 'publisher', updated: dateParts(paper.retraction!.noticeYear) }];
  }
  if (score !== undefined) item.score = score;
  return item;
}

function openalexWork(record: IndexRecord): Record<string, unknown> {
  const { paper } = record;
  const doi = doiOf(record);
  const [first, last] = record.notice ? [] : (paper.pages ?? '').split('-');
  const venue = paper.kind === 'arxiv' ? 'arXiv (Cornell University)' : paper.kind === 'posted' ? 'bioRxiv (Cold Spring Harbor Laboratory)' : venueOf(paper);
  return {
    id: `https://openalex.org/${record.openalexId}`,
    doi: doi ? `https://doi.org/${doi}` : null,
    title: titleOf(record),
    display_name: titleOf(record),
    publication_year: indexYear(record),
    type: record.notice ? 'retraction' : paper.kind === 'arxiv' || paper.kind === 'posted' ? 'preprint' : 'article',
    authorships: record.notice
      ? []
      : paper.authors.map((author, index) => ({
          author_position: index === 0 ? 'first' : 'middle',
          author: { id: `https://openalex.org/A${5000000 + paper.id * 10 + index}`, display_name: `${author.given} ${author.family}`.trim() },
          raw_author_name: `${author.given} ${author.family}`.trim(),
        })),
    primary_location: {
      source: { display_name: venue, host_organization_name: 'Eval Publisher', type: paper.kind === 'proceedings' ? 'conference' : 'journal' },
    },
    biblio: {
      volume: record.notice ? null : (paper.volume ?? null),
      issue: record.notice ? null : (paper.issue ?? null),
      first_page: first || null,
      last_page: last || first || null,
    },
    is_retracted: !record.notice && paper.retraction !== undefined,
    cited_by_count: 10,
  };
}

/** Inverse document frequency of each word over the searchable text of every record. */
class Ranker {
  private readonly idf = new Map<string, number>();
  private readonly texts: Array<Set<string>>;

  constructor(
    private readonly records: IndexRecord[],
    text: (record: IndexRecord) => string,
  ) {
    this.texts = records.map((record) => new Set(tokens(text(record))));
    const counts = new Map<string, number>();
    for (const words of this.texts) for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    for (const [word, count] of counts) this.idf.set(word, Math.log(1 + records.length / count));
  }

  /** The best `rows` records sharing at least one word with the query, best first. */
  rank(query: string, rows: number, keep: (record: IndexRecord) => boolean): Array<{ record: IndexRecord; score: number }> {
    const asked = new Set(tokens(query));
    return this.records
      .map((record, index) => {
        let score = 0;
        for (const word of asked) if (this.texts[index]!.has(word)) score += this.idf.get(word) ?? 0;
        return { record, score };
      })
      .filter((entry) => entry.score > 0 && keep(entry.record))
      .sort((a, b) => b.score - a.score)
      .slice(0, rows);
  }
}

export interface IndexServer {
  url: string;
  requests: number;
  close(): Promise<void>;
}

export function indexRecords(papers = loadPapers()): IndexRecord[] {
  const records: IndexRecord[] = [];
  for (const paper of papers) {
    records.push({ paper, notice: false, openalexId: `W${4000000000 + paper.id * 2}` });
    if (paper.retraction) records.push({ paper, notice: true, openalexId: `W${4000000001 + paper.id * 2}` });
  }
  return records;
}

export async function startIndexServer(records = indexRecords()): Promise<IndexServer> {
  const state = { requests: 0 };
  const byDoi = new Map(records.filter((record) => doiOf(record)).map((record) => [doiOf(record)!, record]));
  const bibliographic = new Ranker(records, (record) => {
    const { paper } = record;
    if (record.notice) return `${titleOf(record)} ${paper.venue} ${paper.retraction!.noticeYear}`;
    return `${titleOf(record)} ${paper.authors.map((author) => `${author.given} ${author.family}`).join(' ')} ${venueOf(paper)} ${indexYear(record)} ${paper.volume ?? ''} ${paper.issue ?? ''} ${paper.pages ?? ''}`;
  });
  const byTitle = new Ranker(records, titleOf);
  const send = (response: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    response
      .writeHead(status, { 'content-type': typeof body === 'string' ? type : 'application/json' })
      .end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    state.requests += 1;
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = decodeURIComponent(url.pathname);
    const openalex = url.searchParams.has('api_key');
    if (path === '/works') {
      const citation = url.searchParams.get('query.bibliographic');
      if (citation !== null) {
        const rows = Number(url.searchParams.get('rows') ?? 20);
        const items = bibliographic.rank(citation, rows, inCrossref).map(({ record, score }) => crossrefItem(record, Math.round(score * 100) / 10));
        return send(response, 200, {
          status: 'ok',
          'message-type': 'work-list',
          'message-version': '1.0.0',
          message: { 'total-results': items.length, items, 'items-per-page': rows, query: { 'start-index': 0, 'search-terms': null } },
        });
      }
      const titleSearch = /title\.search:([^,]*)/.exec(url.searchParams.get('filter') ?? '')?.[1];
      const perPage = Number(url.searchParams.get('per_page') ?? 25);
      const ranked =
        titleSearch !== undefined
          ? byTitle.rank(titleSearch, perPage, () => true)
          : bibliographic.rank(url.searchParams.get('search') ?? '', perPage, () => true);
      const results = ranked.map(({ record }) => openalexWork(record));
      return send(response, 200, {
        meta: { count: results.length, db_response_time_ms: 12, page: 1, per_page: perPage, groups_count: null },
        results,
        group_by: [],
      });
    }
    const openalexDoi = /^\/works\/https:\/\/doi\.org\/(.+)$/.exec(path)?.[1];
    if (openalexDoi && openalex) {
      const found = byDoi.get(openalexDoi.toLowerCase());
      return found ? send(response, 200, openalexWork(found)) : send(response, 404, '<!DOCTYPE html><html><title>404 Not Found</title></html>', 'text/html');
    }
    const crossrefDoi = /^\/works\/(10\..+)$/.exec(path)?.[1];
    if (crossrefDoi) {
      const found = byDoi.get(crossrefDoi.toLowerCase());
      return found && inCrossref(found)
        ? send(response, 200, { status: 'ok', 'message-type': 'work', 'message-version': '1.0.0', message: crossrefItem(found) })
        : send(response, 404, 'Resource not found.', 'text/plain');
    }
    send(response, 404, 'Resource not found.', 'text/plain');
  };
  const server: Server = createServer(handle);
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
