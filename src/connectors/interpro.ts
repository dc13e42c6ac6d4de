/**
 * InterPro: the InterPro entries matching a protein with their positions,
 * `GET /entry/interpro/protein/uniprot/{acc}/?page_size=200`. An empty result is HTTP 204 with no
 * body (the upstream layer gives null for it); slow queries may answer 408 (retried as a failure).
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { path } from '../upstream/path.ts';

export const SOURCE = 'interpro' as const;

export interface InterProEntry {
  accession: string;
  name: string;
  type?: string;
  start?: number;
  end?: number;
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const arr = (value: unknown): Json[] => (Array.isArray(value) ? value.map(obj) : []);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const int = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);

/** Entries with one row per matching fragment, in sequence order. */
export function parseEntries(body: unknown): InterProEntry[] {
  if (body === null) return [];
  const results = obj(body).results;
  if (!Array.isArray(results)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without results`);
  const rows: InterProEntry[] = [];
  for (const result of arr(results)) {
    const metadata = obj(result.metadata);
    const accession = str(metadata.accession);
    const name = str(metadata.name) ?? (typeof metadata.name === 'object' ? str(obj(metadata.name).name) : undefined);
    if (!accession || !name) continue;
    const type = str(metadata.type);
    const fragments = arr(result.proteins).flatMap((protein) => arr(protein.entry_protein_locations).flatMap((location) => arr(location.fragments)));
    if (fragments.length === 0) rows.push({ accession, name, type });
    for (const fragment of fragments) rows.push({ accession, name, type, start: int(fragment.start), end: int(fragment.end) });
  }
  return rows.sort((a, b) => (a.start ?? Number.MAX_SAFE_INTEGER) - (b.start ?? Number.MAX_SAFE_INTEGER) || a.accession.localeCompare(b.accession));
}

export async function entriesForProtein(upstream: UpstreamClient, accession: string): Promise<{ entries: InterProEntry[]; retrievedAt: string }> {
  try {
    const answer = await upstream.getJson(SOURCE, { path: path`/entry/interpro/protein/uniprot/${accession}/`, searchParams: { page_size: 200 } });
    return { entries: parseEntries(answer.body), retrievedAt: answer.retrievedAt };
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return { entries: [], retrievedAt: new Date().toISOString() };
    throw error;
  }
}
