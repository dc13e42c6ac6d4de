/**
 * A fake bibliographic index for the verify_references evaluation: a real HTTP server on 127.0.0.1
 * answering Crossref (`/works?query.bibliographic=`, `/works/{doi}`) and OpenAlex (`/works?filter=
 * title.search:`, `/works?search=`, `/works/https://doi.org/{doi}`) from the hand-made index of real
 * papers in test/fixtures/crossref/. Candidates are ranked by shared words, as a search engine would
 * rank them; an unknown DOI is the plain-text 404 both real services send.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { normalizeText } from '../../../src/literature/paper.ts';

export interface IndexWork {
  doi: string;
  title: string;
  authors: Array<[string, string]>;
  journal: string;
  year: number;
  volume?: string;
  issue?: string;
  page?: string;
  publisher?: string;
  updatedBy?: unknown[];
}

export function loadIndex(): IndexWork[] {
  const file = new URL('../../fixtures/crossref/hand-made-eval-index.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { works: IndexWork[] }).works;
}

const words = (text: string) => new Set(normalizeText(text).split(' ').filter((word) => word.length > 2));

function rank(index: IndexWork[], query: string, rows: number): Array<{ work: IndexWork; score: number }> {
  const asked = words(query);
  return index
    .map((work) => {
      const own = words(`${work.title} ${work.authors.map((author) => author[1]).join(' ')} ${work.journal} ${work.year}`);
      let shared = 0;
      for (const word of asked) if (own.has(word)) shared += 1;
      return { work, score: shared };
    })
    .filter((entry) => entry.score >= 2)
    .sort((a, b) => b.score - a.score)
    .slice(0, rows);
}

export function crossrefItem(work: IndexWork, score?: number): Record<string, unknown> {
  return {
    DOI: work.doi, title: [work.title], author: work.authors.map(([given, family]) => (given ? { given, family } : { family })),
    'container-title': [work.journal], volume: work.volume, issue: work.issue, page: work.page, publisher: work.publisher, type: 'journal-article',
    issued: { 'date-parts': [[work.year]] }, 'updated-by': work.updatedBy, score,
  };
}

export function openalexWork(work: IndexWork, position: number): Record<string, unknown> {
  const [first, last] = (work.page ?? '').split('-');
  return {
    id: `https://openalex.org/W${9000000 + position}`, doi: `https://doi.org/${work.doi}`, title: work.title, publication_year: work.year, type: 'article',
    authorships: work.authors.map(([given, family]) => ({ author: { display_name: `${given} ${family}`.trim() } })),
    primary_location: { source: { display_name: work.journal, host_organization_name: work.publisher } },
    biblio: { volume: work.volume ?? null, issue: work.issue ?? null, first_page: first || null, last_page: last || first || null },
    is_retracted: (work.updatedBy ?? []).length > 0, cited_by_count: 10,
  };
}

export interface IndexServer {
  url: string;
  requests: number;
  close(): Promise<void>;
}

export async function startIndexServer(index = loadIndex()): Promise<IndexServer> {
  const state = { requests: 0 };
  const byDoi = new Map(index.map((work, position) => [work.doi.toLowerCase(), { work, position }]));
  const send = (response: import('node:http').ServerResponse, status: number, body: unknown) => {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    response.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' }).end(text);
  };
  const server: Server = createServer((request, response) => {
    state.requests += 1;
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const path = decodeURIComponent(url.pathname);
    if (path === '/works') {
      const bibliographic = url.searchParams.get('query.bibliographic');
      if (bibliographic !== null) {
        const items = rank(index, bibliographic, Number(url.searchParams.get('rows') ?? 3)).map(({ work, score }) => crossrefItem(work, score * 10));
        return send(response, 200, { status: 'ok', 'message-type': 'work-list', message: { 'total-results': items.length, items } });
      }
      const filter = url.searchParams.get('filter') ?? '';
      const query = /title\.search:([^,]*)/.exec(filter)?.[1] ?? url.searchParams.get('search') ?? '';
      const results = rank(index, query, Number(url.searchParams.get('per_page') ?? 3)).map(({ work }) => openalexWork(work, index.indexOf(work)));
      return send(response, 200, { meta: { count: results.length }, results });
    }
    const openalexDoi = /^\/works\/https:\/\/doi\.org\/(.+)$/.exec(path)?.[1];
    if (openalexDoi) {
      const found = byDoi.get(openalexDoi.toLowerCase());
      return found ? send(response, 200, openalexWork(found.work, found.position)) : send(response, 404, '<html><title>Not found</title></html>');
    }
    const crossrefDoi = /^\/works\/(10\..+)$/.exec(path)?.[1];
    if (crossrefDoi) {
      const found = byDoi.get(crossrefDoi.toLowerCase());
      return found ? send(response, 200, { status: 'ok', 'message-type': 'work', message: crossrefItem(found.work) }) : send(response, 404, 'Resource not found.');
    }
    send(response, 404, 'Resource not found.');
  });
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
