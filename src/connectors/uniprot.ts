/**
 * UniProtKB REST (rest.uniprot.org): one entry by accession (`/uniprotkb/{acc}.json`) or a search
 * (`/uniprotkb/search?query=…&format=json&size=…`). Paging lives in headers, so only the first page
 * is read (sizes here are small). An obsolete accession answers 200 with entryType "Inactive".
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { path } from '../upstream/path.ts';

export const SOURCE = 'uniprot' as const;

export interface UniProtDomain {
  name: string;
  start?: number;
  end?: number;
}

export interface UniProtPdbRef {
  pdbId: string;
  method?: string;
  resolution?: string;
  chains?: string;
}

export interface UniProtEntry {
  accession: string;
  entryName?: string;
  reviewed: boolean;
  proteinName?: string;
  geneSymbol?: string;
  geneSynonyms?: string[];
  organism?: string;
  taxonId?: number;
  function?: string;
  length?: number;
  domains: UniProtDomain[];
  ncbiGeneIds: string[];
  ensemblGeneIds: string[];
  hgncId?: string;
  stringId?: string;
  pdb: UniProtPdbRef[];
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const arr = (value: unknown): Json[] => (Array.isArray(value) ? value.map(obj) : []);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const int = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);

function property(xref: Json, key: string): string | undefined {
  const found = arr(xref.properties).find((item) => item.key === key);
  const value = str(found?.value);
  return value === '-' ? undefined : value;
}

/** One UniProtKB entry in its JSON layout; undefined for an inactive (obsolete) accession. */
export function parseEntry(body: unknown): UniProtEntry | undefined {
  const entry = obj(body);
  const accession = str(entry.primaryAccession);
  if (!accession) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with an entry without an accession`);
  const entryType = str(entry.entryType) ?? '';
  if (/inactive/i.test(entryType)) return undefined;
  const description = obj(entry.proteinDescription);
  const proteinName = str(obj(obj(description.recommendedName).fullName).value) ?? str(obj(obj(arr(description.submissionNames)[0]).fullName).value);
  const gene = arr(entry.genes)[0] ?? {};
  const synonyms = arr(gene.synonyms).flatMap((synonym) => str(synonym.value) ?? []);
  const organism = obj(entry.organism);
  const functionTexts = arr(entry.comments)
    .filter((comment) => comment.commentType === 'FUNCTION')
    .slice(0, 1)
    .flatMap((comment) => arr(comment.texts).flatMap((text) => str(text.value) ?? []));
  const xrefs = arr(entry.uniProtKBCrossReferences);
  const ofDatabase = (database: string) => xrefs.filter((xref) => xref.database === database);
  const ensemblGeneIds = [...new Set(ofDatabase('Ensembl').flatMap((xref) => property(xref, 'GeneId')?.replace(/\.\d+$/, '') ?? []))];
  const domains = arr(entry.features)
    .filter((feature) => feature.type === 'Domain')
    .flatMap((feature) => {
      const name = str(feature.description);
      if (!name) return [];
      const location = obj(feature.location);
      return [{ name, start: int(obj(location.start).value), end: int(obj(location.end).value) }];
    });
  return {
    accession,
    entryName: str(entry.uniProtkbId),
    reviewed: /reviewed \(swiss-prot\)/i.test(entryType),
    proteinName,
    geneSymbol: str(obj(gene.geneName).value),
    geneSynonyms: synonyms.length > 0 ? synonyms : undefined,
    organism: str(organism.scientificName),
    taxonId: int(organism.taxonId),
    function: functionTexts.length > 0 ? functionTexts.join(' ') : undefined,
    length: int(obj(entry.sequence).length),
    domains,
    ncbiGeneIds: ofDatabase('GeneID').flatMap((xref) => str(xref.id) ?? []),
    ensemblGeneIds,
    hgncId: str(ofDatabase('HGNC')[0]?.id),
    stringId: str(ofDatabase('STRING')[0]?.id),
    pdb: ofDatabase('PDB').flatMap((xref) => {
      const pdbId = str(xref.id);
      return pdbId ? [{ pdbId, method: property(xref, 'Method'), resolution: property(xref, 'Resolution'), chains: property(xref, 'Chains') }] : [];
    }),
  };
}

/** The entries of a search answer (`{"results":[…]}`), inactive ones left out. */
export function parseSearch(body: unknown): UniProtEntry[] {
  const results = obj(body).results;
  if (!Array.isArray(results)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered a search without results`);
  return results.flatMap((result) => parseEntry(result) ?? []);
}

export async function getEntry(upstream: UpstreamClient, accession: string): Promise<{ entry: UniProtEntry | undefined; retrievedAt: string }> {
  try {
    const answer = await upstream.getJson(SOURCE, { path: path`/uniprotkb/${accession.trim().toUpperCase()}.json` });
    return { entry: parseEntry(answer.body), retrievedAt: answer.retrievedAt };
  } catch (error) {
    // An unknown accession is 404 (a malformed one 400): no such entry, not a failure.
    if (error instanceof UpstreamError && (error.status === 404 || error.status === 400)) return { entry: undefined, retrievedAt: new Date().toISOString() };
    throw error;
  }
}

export async function searchEntries(upstream: UpstreamClient, query: string, size: number): Promise<{ entries: UniProtEntry[]; retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, { path: '/uniprotkb/search', searchParams: { query, format: 'json', size } });
  return { entries: parseSearch(answer.body), retrievedAt: answer.retrievedAt };
}

/** A value for a UniProt query, quoted so that it stays one term. */
export function uniprotTerm(text: string): string {
  return `"${text.replace(/["\\]/g, ' ').replace(/\s+/g, ' ').trim()}"`;
}

/** The reviewed entry of a gene in an organism, else any entry; undefined when UniProt has none. */
export async function findByGene(upstream: UpstreamClient, symbol: string, taxonId: number): Promise<{ entry: UniProtEntry; retrievedAt: string } | undefined> {
  const base = `gene_exact:${uniprotTerm(symbol)} AND organism_id:${taxonId}`;
  let answer = await searchEntries(upstream, `${base} AND reviewed:true`, 1);
  if (answer.entries.length === 0) answer = await searchEntries(upstream, base, 1);
  const entry = answer.entries[0];
  return entry ? { entry, retrievedAt: answer.retrievedAt } : undefined;
}

/** The best entry for free text (a protein name), reviewed first; undefined when none. */
export async function findByText(upstream: UpstreamClient, text: string, taxonId?: number): Promise<{ entry: UniProtEntry; retrievedAt: string } | undefined> {
  const base = `${uniprotTerm(text)}${taxonId ? ` AND organism_id:${taxonId}` : ''}`;
  let answer = await searchEntries(upstream, `${base} AND reviewed:true`, 1);
  if (answer.entries.length === 0) answer = await searchEntries(upstream, base, 1);
  const entry = answer.entries[0];
  return entry ? { entry, retrievedAt: answer.retrievedAt } : undefined;
}

export const entryUrl = (accession: string): string => `https://www.uniprot.org/uniprotkb/${accession}/entry`;
