/**
 * Reactome ContentService: the lower-level pathways a UniProt protein takes part in,
 * `GET /data/mapping/UniProt/{accession}/pathways?species={taxon}` (resource name case-sensitive).
 * An unmapped identifier answers 404 — no pathways, not a failure.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { path } from '../upstream/path.ts';

export const SOURCE = 'reactome' as const;

export interface Pathway {
  id: string;
  name: string;
  url: string;
  species?: string;
  inDisease?: boolean;
}

type Json = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

export const pathwayUrl = (stId: string): string => `https://reactome.org/content/detail/${stId}`;

/** One Pathway object (the class the mapping endpoint and /data/query return); undefined without a stable id. */
export function parsePathway(value: unknown): Pathway | undefined {
  const pathway = (value && typeof value === 'object' ? value : {}) as Json;
  const id = str(pathway.stId);
  const name = str(pathway.displayName) ?? (Array.isArray(pathway.name) ? str(pathway.name[0]) : undefined);
  if (!id || !name) return undefined;
  return {
    id,
    name,
    url: pathwayUrl(id),
    species: str(pathway.speciesName),
    inDisease: typeof pathway.isInDisease === 'boolean' ? pathway.isInDisease : undefined,
  };
}

export function parsePathways(body: unknown): Pathway[] {
  if (!Array.isArray(body)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered the pathway mapping with something other than a list`);
  const seen = new Set<string>();
  return body.flatMap((item) => {
    const pathway = parsePathway(item);
    if (!pathway || seen.has(pathway.id)) return [];
    seen.add(pathway.id);
    return [pathway];
  });
}

export async function pathwaysForProtein(upstream: UpstreamClient, accession: string, taxonId: number): Promise<{ pathways: Pathway[]; retrievedAt: string }> {
  try {
    const answer = await upstream.getJson(SOURCE, {
      path: path`/data/mapping/UniProt/${accession}/pathways`,
      searchParams: { species: taxonId },
      headers: { accept: 'application/json' },
    });
    return { pathways: parsePathways(answer.body), retrievedAt: answer.retrievedAt };
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return { pathways: [], retrievedAt: new Date().toISOString() };
    throw error;
  }
}
