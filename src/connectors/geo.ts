/**
 * NCBI GEO through E-utilities (db=gds): esearch restricted to series (`gse[ETYP]`), optionally to an
 * organism (`"<name>"[orgn]`), then esummary. Shares NCBI's host and rate limit with ncbi-gene.
 */
import { esearch, esummary, eutilsPhrase, parseSummaries } from './ncbi-eutils.ts';
import type { UpstreamClient } from '../upstream/client.ts';

export const SOURCE = 'geo' as const;

export interface Series {
  accession: string;
  title?: string;
  summary?: string;
  organisms?: string[];
  sampleCount?: number;
  platforms?: string[];
  experimentType?: string;
  publicationDate?: string;
}

type Json = Record<string, unknown>;
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const split = (value: unknown, separator: RegExp): string[] | undefined => {
  const parts = (str(value) ?? '')
    .split(separator)
    .map((part) => part.trim())
    .filter(Boolean);
  return parts.length > 0 ? parts : undefined;
};

export const seriesUrl = (accession: string): string => `https://www.ncbi.nlm.nih.gov/geo/query/acc.cgi?acc=${accession}`;

/** One series of an esummary answer; other record kinds (GDS, GPL, GSM) give undefined. */
export function parseSeries(record: Json): Series | undefined {
  const accession = str(record.accession);
  if (!accession || !/^GSE\d+$/.test(accession)) return undefined;
  const date = /^(\d{4})\/(\d{2})\/(\d{2})$/.exec(str(record.pdat) ?? '');
  const samples = record.n_samples;
  return {
    accession,
    title: str(record.title),
    summary: str(record.summary)?.replace(/\s+/g, ' '),
    organisms: split(record.taxon, /;/),
    sampleCount: typeof samples === 'number' && Number.isInteger(samples) ? samples : undefined,
    platforms: split(record.gpl, /;/)?.map((platform) => (/^GPL/i.test(platform) ? platform.toUpperCase() : `GPL${platform}`)),
    experimentType: str(record.gdstype),
    publicationDate: date ? `${date[1]}-${date[2]}-${date[3]}` : undefined,
  };
}

export function parseSeriesSummaries(body: unknown): Series[] {
  return parseSummaries(SOURCE, body).flatMap((record) => parseSeries(record) ?? []);
}

export function seriesTerm(query: string, organism?: string): string {
  const words = eutilsPhrase(query);
  return `(${words}) AND gse[ETYP]${organism ? ` AND "${eutilsPhrase(organism)}"[orgn]` : ''}`;
}

export async function searchSeries(
  upstream: UpstreamClient,
  query: string,
  organism: string | undefined,
  limit: number,
): Promise<{ series: Series[]; total: number; retrievedAt: string }> {
  const hits = await esearch(upstream, SOURCE, { db: 'gds', term: seriesTerm(query, organism), retmax: limit });
  if (hits.ids.length === 0) return { series: [], total: hits.count, retrievedAt: hits.retrievedAt };
  const summaries = await esummary(upstream, SOURCE, 'gds', hits.ids);
  return { series: summaries.records.flatMap((record) => parseSeries(record) ?? []), total: hits.count, retrievedAt: summaries.retrievedAt };
}
