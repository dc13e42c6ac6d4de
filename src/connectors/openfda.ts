/**
 * openFDA drug endpoints: adverse-event report counts per MedDRA preferred term
 * (`/drug/event.json?search=…&count=patient.reaction.reactionmeddrapt.exact`) and labels
 * (`/drug/label.json`). A search without hits answers HTTP 404 NOT_FOUND: that is zero reports or no
 * label, not a failure. Counts are numbers of spontaneous reports mentioning a term — not incidence,
 * risk or causality.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';

export const SOURCE = 'openfda' as const;
export const INDICATIONS_MAX = 1000;

export interface TermCount {
  term: string;
  report_count: number;
}

export interface Label {
  setId?: string;
  effectiveDate?: string;
  indications?: string;
  hasBoxedWarning: boolean;
  brandNames?: string[];
  genericNames?: string[];
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '') : [];

/** A name as an openFDA phrase: quotes and backslashes removed (an unbalanced quote makes openFDA fail with 500). */
export function phrase(name: string): string {
  return `"${name.replace(/["\\]/g, ' ').replace(/\s+/g, ' ').trim()}"`;
}

export function eventSearch(name: string): string {
  const value = phrase(name);
  return `(patient.drug.openfda.generic_name:${value} OR patient.drug.openfda.brand_name:${value} OR patient.drug.medicinalproduct:${value})`;
}

export function labelSearch(name: string): string {
  const value = phrase(name);
  return `openfda.generic_name:${value} OR openfda.brand_name:${value}`;
}

export function parseCounts(body: unknown): TermCount[] {
  const results = obj(body).results;
  if (!Array.isArray(results)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered a count without results`);
  return results.flatMap((item) => {
    const row = obj(item);
    return typeof row.term === 'string' && typeof row.count === 'number' ? [{ term: row.term, report_count: row.count }] : [];
  });
}

function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).replace(/\s+\S*$/, '')}…` : flat;
}

export function parseLabels(body: unknown): Label[] {
  const results = obj(body).results;
  if (!Array.isArray(results)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered a label search without results`);
  return results.map((item) => {
    const label = obj(item);
    const openfda = obj(label.openfda);
    const effective = typeof label.effective_time === 'string' && /^\d{8}$/.test(label.effective_time) ? label.effective_time : undefined;
    const indications = strings(label.indications_and_usage).join(' ');
    const brandNames = strings(openfda.brand_name);
    const genericNames = strings(openfda.generic_name);
    return {
      setId: typeof label.set_id === 'string' ? label.set_id : undefined,
      effectiveDate: effective ? `${effective.slice(0, 4)}-${effective.slice(4, 6)}-${effective.slice(6, 8)}` : undefined,
      indications: indications ? shorten(indications, INDICATIONS_MAX) : undefined,
      hasBoxedWarning: strings(label.boxed_warning).length > 0,
      brandNames: brandNames.length > 0 ? brandNames : undefined,
      genericNames: genericNames.length > 0 ? genericNames : undefined,
    };
  });
}

async function noMatchAsEmpty<T>(run: () => Promise<T>, empty: T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return empty;
    throw error;
  }
}

export async function countAdverseEventTerms(upstream: UpstreamClient, name: string, limit: number): Promise<{ terms: TermCount[]; retrievedAt: string }> {
  return noMatchAsEmpty(
    async () => {
      const answer = await upstream.getJson(SOURCE, {
        path: '/drug/event.json',
        searchParams: { search: eventSearch(name), count: 'patient.reaction.reactionmeddrapt.exact', limit },
        key: { query: 'api_key' },
      });
      return { terms: parseCounts(answer.body), retrievedAt: answer.retrievedAt };
    },
    { terms: [], retrievedAt: new Date().toISOString() },
  );
}

/**
 * The label of the drug: among the most recent ones, the first whose generic or brand name is exactly
 * one of `names` (a search also finds combination products), else the most recent; undefined when none.
 */
export function pickLabel(labels: Label[], names: string[]): Label | undefined {
  const wanted = new Set(names.map((name) => name.trim().toUpperCase()));
  return labels.find((label) => [...(label.genericNames ?? []), ...(label.brandNames ?? [])].some((name) => wanted.has(name.toUpperCase()))) ?? labels[0];
}

export async function searchLabels(upstream: UpstreamClient, names: string[]): Promise<{ label: Label | undefined; retrievedAt: string }> {
  return noMatchAsEmpty(
    async () => {
      const answer = await upstream.getJson(SOURCE, {
        path: '/drug/label.json',
        searchParams: { search: labelSearch(names[0]!), limit: 5, sort: 'effective_time:desc' },
        key: { query: 'api_key' },
      });
      return { label: pickLabel(parseLabels(answer.body), names), retrievedAt: answer.retrievedAt };
    },
    { label: undefined, retrievedAt: new Date().toISOString() },
  );
}
