/**
 * RCSB PDB on its two hosts. Search API v2 (search.rcsb.org, `GET /rcsbsearch/v2/query?json=…`)
 * finds entry ids; it answers 204 with an empty body when nothing matches. The Data API
 * (data.rcsb.org) describes entries: the REST core entry (`/rest/v1/core/entry/{id}`) and, for several
 * entries with their organisms and UniProt accessions in one request, GraphQL (`GET /graphql?query=…`),
 * whose entry objects carry the same field names as the REST ones.
 */
import { sources } from '../../generated/tools.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';

export const SOURCE = 'rcsb-pdb' as const;
export const SEARCH_HOST = 'https://search.rcsb.org';

export interface PdbEntry {
  pdbId: string;
  title?: string;
  method?: string;
  resolutionAngstrom?: number;
  releaseDate?: string;
  organisms?: string[];
  uniprotAccessions?: string[];
  mmcifUrl: string;
  pdbUrl?: string;
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const arr = (value: unknown): Json[] => (Array.isArray(value) ? value.map(obj) : []);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const unique = (values: string[]): string[] | undefined => (values.length > 0 ? [...new Set(values)] : undefined);

export const entryPage = (pdbId: string): string => `https://www.rcsb.org/structure/${pdbId}`;

/**
 * The search host: RCSB's own beside the real data host; beside an overridden data host (a mirror, a
 * test server) the same host, so that SOURCE_RCSB_PDB_URL moves both.
 */
export function searchBaseUrl(upstream: UpstreamClient): string {
  const dataBase = upstream.source(SOURCE).baseUrl;
  return dataBase === sources[SOURCE].baseUrl.replace(/\/+$/, '') ? SEARCH_HOST : dataBase;
}

/** One entry object (REST core entry or a GraphQL `entries` item). */
export function parseEntry(value: unknown): PdbEntry {
  const entry = obj(value);
  const pdbId = str(entry.rcsb_id) ?? str(obj(entry.entry).id);
  if (!pdbId) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with an entry without an id`);
  const info = obj(entry.rcsb_entry_info);
  const resolutions = Array.isArray(info.resolution_combined)
    ? info.resolution_combined.filter((item): item is number => typeof item === 'number' && item > 0)
    : [];
  const released = str(obj(entry.rcsb_accession_info).initial_release_date);
  const entities = arr(entry.polymer_entities);
  const organisms = entities.flatMap((entity) => arr(entity.rcsb_entity_source_organism).flatMap((organism) => str(organism.scientific_name) ?? []));
  const accessions = entities.flatMap((entity) =>
    arr(obj(entity.rcsb_polymer_entity_container_identifiers).reference_sequence_identifiers)
      .filter((reference) => /^uniprot$/i.test(String(reference.database_name ?? '')))
      .flatMap((reference) => str(reference.database_accession) ?? []),
  );
  const id = pdbId.toUpperCase();
  // Entries too large for the legacy format have no .pdb file.
  const hasLegacyFile = typeof info.deposited_atom_count !== 'number' || (info.deposited_atom_count as number) <= 99_999;
  return {
    pdbId: id,
    title: str(obj(entry.struct).title),
    method:
      arr(entry.exptl)
        .flatMap((item) => str(item.method) ?? [])
        .join(', ') || undefined,
    resolutionAngstrom: resolutions.length > 0 ? Math.min(...resolutions) : undefined,
    releaseDate: released && /^\d{4}-\d{2}-\d{2}/.test(released) ? released.slice(0, 10) : undefined,
    organisms: unique(organisms),
    uniprotAccessions: unique(accessions),
    mmcifUrl: `https://files.rcsb.org/download/${id}.cif`,
    pdbUrl: hasLegacyFile ? `https://files.rcsb.org/download/${id}.pdb` : undefined,
  };
}

/** Entry ids of a search answer; null (the 204 of "nothing matches") is no ids. */
export function parseSearch(body: unknown): { ids: string[]; total: number } {
  if (body === null) return { ids: [], total: 0 };
  const answer = obj(body);
  if (!Array.isArray(answer.result_set)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} search answered without a result_set`);
  const ids = arr(answer.result_set).flatMap((hit) => str(hit.identifier) ?? []);
  return { ids, total: typeof answer.total_count === 'number' ? answer.total_count : ids.length };
}

/** The search query for entries with a polymer entity mapped to a UniProt accession. */
export function accessionQuery(accession: string, rows: number): object {
  return {
    query: {
      type: 'group',
      logical_operator: 'and',
      nodes: [
        {
          type: 'terminal',
          service: 'text',
          parameters: {
            attribute: 'rcsb_polymer_entity_container_identifiers.reference_sequence_identifiers.database_accession',
            operator: 'exact_match',
            value: accession,
          },
        },
        {
          type: 'terminal',
          service: 'text',
          parameters: {
            attribute: 'rcsb_polymer_entity_container_identifiers.reference_sequence_identifiers.database_name',
            operator: 'exact_match',
            value: 'UniProt',
          },
        },
      ],
    },
    return_type: 'entry',
    request_options: { paginate: { start: 0, rows } },
  };
}

export async function searchEntries(upstream: UpstreamClient, accession: string, rows: number): Promise<{ ids: string[]; total: number; retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, {
    baseUrl: searchBaseUrl(upstream),
    path: '/rcsbsearch/v2/query',
    searchParams: { json: JSON.stringify(accessionQuery(accession, rows)) },
  });
  return { ...parseSearch(answer.body), retrievedAt: answer.retrievedAt };
}

const ENTRY_FIELDS =
  'rcsb_id struct{title} exptl{method} rcsb_entry_info{resolution_combined deposited_atom_count} rcsb_accession_info{initial_release_date} ' +
  'polymer_entities{rcsb_entity_source_organism{scientific_name} rcsb_polymer_entity_container_identifiers{reference_sequence_identifiers{database_name database_accession}}}';

/** The GraphQL query for several entries; ids are checked PDB ids, written as JSON strings. */
export function entriesQuery(ids: string[]): string {
  return `{entries(entry_ids:${JSON.stringify(ids)}){${ENTRY_FIELDS}}}`;
}

/** Entries of a GraphQL answer, in the order asked; GraphQL `errors` without data are a failure. */
export function parseGraphqlEntries(body: unknown, ids: string[]): PdbEntry[] {
  const answer = obj(body);
  const entries = obj(answer.data).entries;
  if (!Array.isArray(entries)) {
    const message = str(arr(answer.errors)[0]?.message);
    throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} GraphQL answered without entries${message ? `: ${message}` : ''}`);
  }
  const parsed = entries.filter((entry) => entry !== null).map(parseEntry);
  const order = new Map(ids.map((id, index) => [id.toUpperCase(), index]));
  return parsed.sort((a, b) => (order.get(a.pdbId) ?? 0) - (order.get(b.pdbId) ?? 0));
}

export async function getEntries(upstream: UpstreamClient, ids: string[]): Promise<{ entries: PdbEntry[]; retrievedAt: string }> {
  if (ids.length === 0) return { entries: [], retrievedAt: new Date().toISOString() };
  const wanted = ids.map((id) => id.toUpperCase());
  const answer = await upstream.getJson(SOURCE, { path: '/graphql', searchParams: { query: entriesQuery(wanted) } });
  return { entries: parseGraphqlEntries(answer.body, wanted), retrievedAt: answer.retrievedAt };
}
