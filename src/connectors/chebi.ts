/**
 * ChEBI 2.0 REST API (`…/chebi/backend/api/public`; the legacy SOAP service is retired): free-text
 * search (`/es_search/?term=`, hits under `results[]._source`) and one compound
 * (`/compound/CHEBI:<n>/`) with its definition and `roles_classification`. No recording of this API
 * exists yet: field names follow its published schema and public clients, read defensively.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { arr, obj, plainText, str } from './values.ts';

export const SOURCE = 'chebi' as const;

export interface Hit {
  chebiId: string;
  name?: string;
  inchikey?: string;
}

export interface Compound {
  chebiId: string;
  name?: string;
  definition?: string;
  inchikey?: string;
  roles?: string[];
}

/** "CHEBI:15365" from "CHEBI:15365", "15365" or 15365; undefined otherwise. */
export function chebiId(value: unknown): string | undefined {
  const match = /^(?:CHEBI:)?(\d+)$/i.exec(String(value ?? '').trim());
  return match ? `CHEBI:${match[1]}` : undefined;
}

export function parseSearch(body: unknown): Hit[] {
  const results = obj(body).results;
  if (!Array.isArray(results)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered a search without results`);
  return arr(results).flatMap((result) => {
    const hit = obj(result._source);
    const id = chebiId(hit.chebi_accession ?? result._id);
    return id ? [{ chebiId: id, name: str(hit.name), inchikey: str(hit.inchikey) }] : [];
  });
}

export function parseCompound(body: unknown): Compound {
  const compound = obj(body);
  const id = chebiId(compound.chebi_accession ?? compound.id);
  if (!id) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with a compound without an accession`);
  const roles = [...new Set(arr(compound.roles_classification).flatMap((role) => str(role.name) ?? []))];
  return {
    chebiId: id,
    name: str(compound.name) ?? str(compound.ascii_name),
    // Definitions carry light markup (<sub>, <i>): plain text is kept.
    definition: plainText(compound.definition),
    inchikey: str(obj(compound.default_structure).standard_inchi_key),
    roles: roles.length > 0 ? roles : undefined,
  };
}

/** The ChEBI entity whose standard InChIKey is exactly `inchikey`; undefined when ChEBI has none. */
export async function searchEntities(upstream: UpstreamClient, inchikey: string): Promise<Hit | undefined> {
  const answer = await upstream.getJson(SOURCE, { path: '/es_search/', searchParams: { term: inchikey, page: 1, size: 10 } });
  return parseSearch(answer.body).find((hit) => hit.inchikey === inchikey);
}

/** One compound; undefined when ChEBI does not know the id (404). */
export async function getCompound(upstream: UpstreamClient, id: string): Promise<Compound | undefined> {
  try {
    const answer = await upstream.getJson(SOURCE, { path: `/compound/${id}/` });
    return parseCompound(answer.body);
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return undefined;
    throw error;
  }
}
