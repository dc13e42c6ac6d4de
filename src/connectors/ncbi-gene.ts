/**
 * NCBI Gene through E-utilities: esearch (db=gene) to find the gene, esummary for its record.
 * Counts and ids arrive as strings; `otheraliases` is one comma-separated string; an empty
 * `nomenclaturesymbol` falls back to `name`; a bad id answers HTTP 200 with an `error` member.
 */
import { esearch, esummary, eutilsPhrase, parseSummaries } from './ncbi-eutils.ts';
import type { UpstreamClient } from '../upstream/client.ts';

export const SOURCE = 'ncbi-gene' as const;

export interface NcbiGene {
  geneId: string;
  symbol: string;
  name?: string;
  aliases?: string[];
  summary?: string;
  chromosome?: string;
  mapLocation?: string;
  organism?: string;
  taxonId?: number;
  /** Non-empty for a replaced or discontinued gene record. */
  status?: string;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

export function parseGene(record: Record<string, unknown>): NcbiGene | undefined {
  const geneId = text(record.uid);
  const symbol = text(record.nomenclaturesymbol) ?? text(record.name);
  if (!geneId || !symbol) return undefined;
  const organism = (record.organism ?? {}) as Record<string, unknown>;
  const aliases = text(record.otheraliases)
    ?.split(',')
    .map((alias) => alias.trim())
    .filter(Boolean);
  const taxonId = Number(organism.taxid);
  return {
    geneId,
    symbol,
    name: text(record.nomenclaturename) ?? text(record.description),
    aliases: aliases && aliases.length > 0 ? aliases : undefined,
    summary: text(record.summary),
    chromosome: text(record.chromosome),
    mapLocation: text(record.maplocation),
    organism: text(organism.scientificname),
    taxonId: Number.isInteger(taxonId) && taxonId > 0 ? taxonId : undefined,
    status: text(record.status),
  };
}

/** The genes of an esummary answer, in the order of its `uids`. */
export function parseGeneSummaries(body: unknown): NcbiGene[] {
  return parseSummaries(SOURCE, body).flatMap((record) => parseGene(record) ?? []);
}

/** Gene ids for a symbol (exact symbol first), an Ensembl id or a name, in one organism. */
export async function searchGenes(upstream: UpstreamClient, query: string, taxonId: number, retmax = 1): Promise<{ ids: string[]; retrievedAt: string }> {
  const phrase = eutilsPhrase(query);
  const bySymbol = await esearch(upstream, SOURCE, { db: 'gene', term: `"${phrase}"[sym] AND ${taxonId}[taxid]`, retmax });
  if (bySymbol.ids.length > 0) return bySymbol;
  return esearch(upstream, SOURCE, { db: 'gene', term: `${phrase} AND ${taxonId}[taxid]`, retmax, sort: 'relevance' });
}

export async function getGeneSummaries(upstream: UpstreamClient, ids: string[]): Promise<{ genes: NcbiGene[]; retrievedAt: string }> {
  const answer = await esummary(upstream, SOURCE, 'gene', ids);
  return { genes: answer.records.flatMap((record) => parseGene(record) ?? []), retrievedAt: answer.retrievedAt };
}

/** One gene for the query, or undefined when NCBI Gene has none. */
export async function findGene(upstream: UpstreamClient, query: string, taxonId: number): Promise<{ gene: NcbiGene; retrievedAt: string } | undefined> {
  const hits = await searchGenes(upstream, query, taxonId);
  if (hits.ids.length === 0) return undefined;
  const summaries = await getGeneSummaries(upstream, hits.ids.slice(0, 1));
  const gene = summaries.genes[0];
  return gene ? { gene, retrievedAt: summaries.retrievedAt } : undefined;
}

export const geneUrl = (geneId: string): string => `https://www.ncbi.nlm.nih.gov/gene/${geneId}`;
