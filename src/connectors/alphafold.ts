/**
 * AlphaFold DB: `GET /prediction/{accession}` answers a list with one entry per UniProt isoform
 * (since v6); the model of the accession asked is the entry whose uniprotAccession is that accession
 * (entryId AF-{acc}-F1) — never simply the first. File URLs carry the model version.
 * An accession without a model answers a non-200 status: no model, not a failure.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { path } from '../upstream/path.ts';

export const SOURCE = 'alphafold' as const;

export interface PredictedModel {
  entryId: string;
  accession: string;
  gene?: string;
  description?: string;
  organism?: string;
  taxonId?: number;
  meanPlddt?: number;
  version?: number;
  createdDate?: string;
  cifUrl?: string;
  pdbUrl?: string;
  paeImageUrl?: string;
}

type Json = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

export const modelPage = (accession: string): string => `https://alphafold.ebi.ac.uk/entry/${accession}`;

/** The model of `accession` among the entries of a prediction answer, or undefined when it has none. */
export function pickModel(body: unknown, accession: string): PredictedModel | undefined {
  if (!Array.isArray(body)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with something other than a list of models`);
  const wanted = accession.trim().toUpperCase();
  const entries = body.filter((item): item is Json => !!item && typeof item === 'object');
  const entry =
    entries.find((item) => String(item.uniprotAccession ?? '').toUpperCase() === wanted && String(item.entryId ?? '').toUpperCase() === `AF-${wanted}-F1`) ??
    entries.find((item) => String(item.uniprotAccession ?? '').toUpperCase() === wanted);
  if (!entry) return undefined;
  const created = str(entry.modelCreatedDate);
  return {
    entryId: String(entry.entryId),
    accession: String(entry.uniprotAccession),
    gene: str(entry.gene),
    description: str(entry.uniprotDescription),
    organism: str(entry.organismScientificName),
    taxonId: num(entry.taxId),
    meanPlddt: num(entry.globalMetricValue),
    version: num(entry.latestVersion),
    createdDate: created && /^\d{4}-\d{2}-\d{2}/.test(created) ? created.slice(0, 10) : undefined,
    cifUrl: str(entry.cifUrl),
    pdbUrl: str(entry.pdbUrl),
    paeImageUrl: str(entry.paeImageUrl),
  };
}

export async function getPrediction(upstream: UpstreamClient, accession: string): Promise<{ model: PredictedModel | undefined; retrievedAt: string }> {
  try {
    const answer = await upstream.getJson(SOURCE, { path: path`/prediction/${accession.trim().toUpperCase()}` });
    return { model: pickModel(answer.body, accession), retrievedAt: answer.retrievedAt };
  } catch (error) {
    if (error instanceof UpstreamError && (error.status === 404 || error.status === 400 || error.status === 422))
      return { model: undefined, retrievedAt: new Date().toISOString() };
    throw error;
  }
}
