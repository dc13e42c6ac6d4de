/**
 * Ensembl REST: `/lookup/symbol/{species}/{symbol}` and `/lookup/id/{id}` with Accept: application/json.
 * An unknown symbol or id answers HTTP 400 `{"error":"No valid lookup found …"}` — that is "not found"
 * here, not a failure. Key order in Ensembl JSON is arbitrary, so nothing depends on it.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { path } from '../upstream/path.ts';

export const SOURCE = 'ensembl' as const;

export interface EnsemblGene {
  id: string;
  version?: number;
  symbol?: string;
  description?: string;
  hgncId?: string;
  biotype?: string;
  species?: string;
  chromosome?: string;
  start?: number;
  end?: number;
  strand?: number;
  canonicalTranscript?: string;
}

type Json = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const int = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);

export function parseGene(body: unknown): EnsemblGene {
  const gene = (body && typeof body === 'object' ? body : {}) as Json;
  const id = str(gene.id);
  if (!id) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered a lookup without an id`);
  const rawDescription = str(gene.description);
  const hgncId = rawDescription ? /\[Source:HGNC Symbol;Acc:(HGNC:\d+)\]/.exec(rawDescription)?.[1] : undefined;
  return {
    id,
    version: int(gene.version),
    symbol: str(gene.display_name),
    description: rawDescription?.replace(/\s*\[Source:[^\]]*\]\s*$/, ''),
    hgncId,
    biotype: str(gene.biotype),
    species: str(gene.species),
    chromosome: str(gene.seq_region_name),
    start: int(gene.start),
    end: int(gene.end),
    strand: int(gene.strand),
    canonicalTranscript: str(gene.canonical_transcript),
  };
}

async function lookup(upstream: UpstreamClient, route: string): Promise<{ gene: EnsemblGene | undefined; retrievedAt: string }> {
  try {
    const answer = await upstream.getJson(SOURCE, { path: route, headers: { accept: 'application/json' } });
    return { gene: parseGene(answer.body), retrievedAt: answer.retrievedAt };
  } catch (error) {
    if (error instanceof UpstreamError && (error.status === 400 || error.status === 404)) return { gene: undefined, retrievedAt: new Date().toISOString() };
    throw error;
  }
}

export function lookupSymbol(upstream: UpstreamClient, species: string, symbol: string) {
  return lookup(upstream, path`/lookup/symbol/${species}/${symbol.trim()}`);
}

export function lookupId(upstream: UpstreamClient, id: string) {
  return lookup(upstream, path`/lookup/id/${id.trim()}`);
}

export const geneUrl = (id: string): string => `https://www.ensembl.org/id/${id}`;
