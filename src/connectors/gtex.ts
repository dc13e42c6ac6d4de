/**
 * GTEx Portal API v2: `reference/gene` resolves a symbol or Ensembl id to the versioned GENCODE id of
 * the dataset's annotation (gtex_v8 = GENCODE v26), then `expression/medianGeneExpression` gives the
 * median TPM per tissue. An unknown gene, a wrong version or a missing datasetId all answer 200 with
 * empty `data`: that means "not resolved", never "not expressed". Rows come in tissue order.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';

export const SOURCE = 'gtex' as const;
export const DATASET = 'gtex_v8';
export const GENCODE_VERSION = 'v26';
export const GENOME_BUILD = 'GRCh38/hg38';

export interface GtexGene {
  gencodeId: string;
  symbol: string;
  description?: string;
  chromosome?: string;
  geneType?: string;
}

export interface TissueMedian {
  tissue_id: string;
  ontology_id?: string;
  median_tpm: number;
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

function rows(body: unknown): Json[] {
  const data = obj(body).data;
  if (!Array.isArray(data)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without a data list`);
  return data.map(obj);
}

export function parseGenes(body: unknown): GtexGene[] {
  return rows(body).flatMap((row) => {
    const gencodeId = str(row.gencodeId);
    const symbol = str(row.geneSymbol);
    return gencodeId && symbol
      ? [
          {
            gencodeId,
            symbol,
            description: str(row.description)?.replace(/\s*\[Source:[^\]]*\]\s*$/, ''),
            chromosome: str(row.chromosome),
            geneType: str(row.geneType),
          },
        ]
      : [];
  });
}

/** Median TPM per tissue, highest first (ties by tissue id). */
export function parseMedians(body: unknown): TissueMedian[] {
  return rows(body)
    .flatMap((row) => {
      const tissue = str(row.tissueSiteDetailId);
      const median = typeof row.median === 'number' ? row.median : Number.NaN;
      return tissue && Number.isFinite(median) && median >= 0 ? [{ tissue_id: tissue, ontology_id: str(row.ontologyId), median_tpm: median }] : [];
    })
    .sort((a, b) => b.median_tpm - a.median_tpm || a.tissue_id.localeCompare(b.tissue_id));
}

/** The gene whose symbol or Ensembl id is `gene` exactly, among the rows GTEx returns. */
export function pickGene(genes: GtexGene[], gene: string): GtexGene | undefined {
  const wanted = gene
    .trim()
    .toUpperCase()
    .replace(/\.\d+$/, '');
  return genes.find((row) => row.symbol.toUpperCase() === wanted || row.gencodeId.toUpperCase().replace(/\.\d+$/, '') === wanted);
}

export async function resolveGene(upstream: UpstreamClient, gene: string): Promise<GtexGene | undefined> {
  const answer = await upstream.getJson(SOURCE, {
    path: '/reference/gene',
    searchParams: { geneId: gene.trim().replace(/\.\d+$/, ''), gencodeVersion: GENCODE_VERSION, genomeBuild: GENOME_BUILD, itemsPerPage: 50 },
  });
  return pickGene(parseGenes(answer.body), gene);
}

export async function medianGeneExpression(upstream: UpstreamClient, gencodeId: string): Promise<{ tissues: TissueMedian[]; retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, {
    path: '/expression/medianGeneExpression',
    searchParams: { gencodeId, datasetId: DATASET, itemsPerPage: 250 },
  });
  return { tissues: parseMedians(answer.body), retrievedAt: answer.retrievedAt };
}

export const genePage = (symbolOrId: string): string => `https://gtexportal.org/home/gene/${encodeURIComponent(symbolOrId)}`;
