/**
 * The one NCBI E-utilities client (esearch, esummary, efetch), shared by pubmed (db=pubmed),
 * ncbi-gene (db=gene) and geo (db=gds): the polite tool/email parameters, the optional api_key, and
 * the HTTP-200 error bodies. All three sit on one host and one request-rate limit (3/s without a key;
 * the host group "ncbi" of the upstream layer paces them together). E-utilities report many failures with HTTP 200 and an
 * `error` member in the body; those become UpstreamErrors here, while "no items found" is zero hits.
 */
import type { SourceId } from '../../generated/types.ts';
import { PRODUCT, type UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';

export type EutilsSource = Extract<SourceId, 'pubmed' | 'ncbi-gene' | 'geo'>;

type Params = Record<string, string | number | undefined>;

export interface SearchHits {
  count: number;
  ids: string[];
  retrievedAt: string;
}

export interface Summaries {
  records: Array<Record<string, unknown>>;
  retrievedAt: string;
}

function politeParams(upstream: UpstreamClient): Record<string, string | undefined> {
  return { tool: PRODUCT, email: upstream.contactEmail };
}

const asObject = (value: unknown): Record<string, unknown> | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** The error an E-utilities body carries with its HTTP 200, or undefined. */
function bodyError(body: Record<string, unknown>, inner?: Record<string, unknown>): string | undefined {
  const error = body.error ?? inner?.ERROR ?? inner?.error;
  return typeof error === 'string' && error.trim() !== '' ? error.trim() : undefined;
}

export function parseSearch(source: EutilsSource, body: unknown): { count: number; ids: string[] } {
  const top = asObject(body);
  const result = asObject(top?.esearchresult);
  if (!top || !result) throw new UpstreamError(source, 'bad_body', `${source} answered without an esearchresult`);
  const error = bodyError(top, result);
  if (error) throw new UpstreamError(source, 'http_error', `${source} reported an error: ${error}`);
  const ids = Array.isArray(result.idlist) ? result.idlist.map(String) : [];
  const count = Number(result.count ?? ids.length);
  return { count: Number.isFinite(count) ? count : ids.length, ids };
}

export function parseSummaries(source: EutilsSource, body: unknown): Array<Record<string, unknown>> {
  const top = asObject(body);
  if (!top) throw new UpstreamError(source, 'bad_body', `${source} answered with an esummary that is not an object`);
  const error = bodyError(top);
  if (error) throw new UpstreamError(source, 'http_error', `${source} reported an error: ${error}`);
  const result = asObject(top.result);
  if (!result) throw new UpstreamError(source, 'bad_body', `${source} answered without an esummary result`);
  const uids = Array.isArray(result.uids) ? result.uids.map(String) : [];
  return uids.flatMap((uid) => {
    const record = asObject(result[uid]);
    return record && !record.error ? [record] : [];
  });
}

/** One esearch or esummary request (retmode=json), with the polite parameters and the key when one is set. */
export function eutilsJson(upstream: UpstreamClient, source: EutilsSource, utility: 'esearch' | 'esummary', params: Params) {
  return upstream.getJson(source, {
    path: `/${utility}.fcgi`,
    searchParams: { ...params, retmode: 'json', ...politeParams(upstream) },
    key: { query: 'api_key' },
  });
}

/** One efetch request (retmode=xml), answered as text. */
export function efetchXml(upstream: UpstreamClient, source: EutilsSource, params: Params) {
  return upstream.getText(source, { path: '/efetch.fcgi', searchParams: { ...params, retmode: 'xml', ...politeParams(upstream) }, key: { query: 'api_key' } });
}

export async function esearch(
  upstream: UpstreamClient,
  source: EutilsSource,
  params: { db: string; term: string; retmax: number; retstart?: number; sort?: string },
): Promise<SearchHits> {
  const answer = await eutilsJson(upstream, source, 'esearch', {
    db: params.db,
    term: params.term,
    retmax: params.retmax,
    retstart: params.retstart || undefined,
    sort: params.sort,
  });
  return { ...parseSearch(source, answer.body), retrievedAt: answer.retrievedAt };
}

export async function esummary(upstream: UpstreamClient, source: EutilsSource, db: string, ids: string[]): Promise<Summaries> {
  if (ids.length === 0) return { records: [], retrievedAt: new Date().toISOString() };
  const answer = await eutilsJson(upstream, source, 'esummary', { db, id: ids.join(',') });
  return { records: parseSummaries(source, answer.body), retrievedAt: answer.retrievedAt };
}

/** A term for an E-utilities query: double quotes and brackets removed so the words cannot change the query's fields. */
export function eutilsPhrase(text: string): string {
  return text
    .replace(/["[\]]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
