/**
 * OEIS search: GET <base>/search?q=<query>&fmt=json&start=<offset>, ten results per page. Two
 * answer layouts exist: the legacy object {greeting, query, count, start, results} (results null
 * when nothing matches) and a bare array of results (null or empty when nothing matches).
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';

export const SOURCE = 'oeis' as const;
export const PAGE_SIZE = 10;

export interface Sequence {
  aNumber: string;
  name: string;
  terms: string[];
  offset?: number;
  formulas?: string[];
  keywords?: string[];
  comments?: string[];
  author?: string;
  referencesCount?: number;
}

/** An A-number becomes `id:A000045`; a list of integers `1,1,2,3`; anything else stays as words. */
export function oeisQuery(query: string): string {
  const text = query.trim();
  const aNumber = /^a(\d{1,6})$/i.exec(text);
  if (aNumber) return `id:A${aNumber[1]!.padStart(6, '0')}`;
  const terms = text.split(/[\s,]+/).filter(Boolean);
  if (terms.length > 1 && terms.every((term) => /^-?\d+$/.test(term))) return terms.join(',');
  return text;
}

export async function search(upstream: UpstreamClient, query: string, limit: number): Promise<{ sequences: Sequence[]; retrievedAt: string }> {
  const q = oeisQuery(query);
  const sequences: Sequence[] = [];
  let retrievedAt = '';
  for (let start = 0; sequences.length < limit; start += PAGE_SIZE) {
    const answer = await upstream.getJson(SOURCE, { path: '/search', searchParams: { q, fmt: 'json', start: start === 0 ? undefined : start } });
    retrievedAt ||= answer.retrievedAt;
    const page = parseSearch(answer.body);
    sequences.push(...page.sequences);
    if (page.sequences.length < PAGE_SIZE || (page.count !== undefined && start + PAGE_SIZE >= page.count)) break;
  }
  return { sequences: sequences.slice(0, limit), retrievedAt };
}

/** Results of one page in either layout; `count` (total matches) only in the legacy one. */
export function parseSearch(body: unknown): { sequences: Sequence[]; count?: number } {
  if (body === null) return { sequences: [] };
  let results: unknown;
  let count: number | undefined;
  if (Array.isArray(body)) results = body;
  else if (typeof body === 'object' && 'results' in (body as object)) {
    results = (body as { results: unknown }).results ?? [];
    const total = (body as { count?: unknown }).count;
    if (typeof total === 'number') count = total;
  } else {
    throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with JSON in an unknown layout`);
  }
  if (!Array.isArray(results)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with results that are not a list`);
  return { sequences: results.flatMap((result) => parseSequence(result as Record<string, unknown>)), count };
}

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.length > 0 ? value.filter((item): item is string => typeof item === 'string') : undefined;

function parseSequence(result: Record<string, unknown>): Sequence[] {
  const number = result.number;
  const digits = typeof number === 'number' ? String(number) : typeof number === 'string' ? number.replace(/^A/i, '') : '';
  if (!/^\d{1,6}$/.test(digits) || typeof result.name !== 'string') return [];
  const terms =
    typeof result.data === 'string'
      ? result.data
          .split(',')
          .map((term) => term.trim())
          .filter((term) => /^-?\d+$/.test(term))
      : [];
  const offset =
    typeof result.offset === 'string' ? Number.parseInt(result.offset.split(',')[0] ?? '', 10) : typeof result.offset === 'number' ? result.offset : Number.NaN;
  const keywords =
    typeof result.keyword === 'string'
      ? result.keyword
          .split(',')
          .map((keyword) => keyword.trim())
          .filter(Boolean)
      : undefined;
  return [
    {
      aNumber: `A${digits.padStart(6, '0')}`,
      name: result.name,
      terms,
      offset: Number.isInteger(offset) ? offset : undefined,
      formulas: strings(result.formula),
      keywords: keywords && keywords.length > 0 ? keywords : undefined,
      comments: strings(result.comment),
      author: typeof result.author === 'string' ? result.author : undefined,
      referencesCount: typeof result.references === 'number' ? result.references : undefined,
    },
  ];
}
