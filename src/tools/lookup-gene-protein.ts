/**
 * lookup_gene_protein: one record joining NCBI Gene (ids, symbol, summary, location), Ensembl (gene id,
 * HGNC id), UniProt (accession, function, length, domain features), and — as `include` asks —
 * InterPro (domains, when UniProt lists none), Reactome (pathways) and STRING (partners).
 *
 * Order of calls: the gene is resolved first (NCBI Gene and Ensembl in parallel, or UniProt first when
 * the query is an accession), then UniProt by the resolved symbol, then the optional parts in
 * parallel. A source that fails leaves its part out; the record still comes, the answer is partial
 * and failedSources names the part that is missing.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { LookupGeneProteinArgs, LookupGeneProteinData, SourceId } from '../../generated/types.ts';
import * as ensembl from '../connectors/ensembl.ts';
import * as interpro from '../connectors/interpro.ts';
import * as ncbiGene from '../connectors/ncbi-gene.ts';
import * as reactome from '../connectors/reactome.ts';
import * as string from '../connectors/string.ts';
import * as uniprot from '../connectors/uniprot.ts';
import { isEnsemblGeneId, isUniProtAccession, looksLikeSymbol, unversioned } from '../life/identifiers.ts';
import { resolveOrganism } from '../life/organisms.ts';
import { Join } from '../life/parts.ts';
import type { ToolContext } from './context.ts';
import { makeRecord } from './result.ts';

export const DISCLAIMER = 'Research lookup, not medical advice.' as const;
export const PARTNER_LIMIT = 10;

const MISSING: Record<string, string> = {
  'ncbi-gene': 'NCBI Gene id, gene summary, aliases and cytogenetic location',
  ensembl: 'Ensembl gene id',
  uniprot: 'UniProt accession, protein function and length (and the parts looked up by accession)',
  interpro: 'domains',
  reactome: 'pathways',
  string: 'interactions',
};

type Data = LookupGeneProteinData;

export const lookupGeneProtein: ToolHandler<LookupGeneProteinArgs, Data, ToolContext> = async (args, context) => {
  const upstream = context.upstream;
  const organism = resolveOrganism(args.organism);
  const include = new Set(args.include);
  const query = args.query.trim();
  const join = new Join((source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'));
  const attempt = <T>(source: SourceId, run: () => Promise<T>) => join.attempt(source, MISSING[source]!, run);
  const retrieved: Array<{ source: SourceId; at: string }> = [];
  const note = <T extends { retrievedAt: string }>(source: SourceId, value: T | undefined): T | undefined => {
    if (value) retrieved.push({ source, at: value.retrievedAt });
    return value;
  };

  let gene: ncbiGene.NcbiGene | undefined;
  let ensemblGene: ensembl.EnsemblGene | undefined;
  let protein: uniprot.UniProtEntry | undefined;

  if (isUniProtAccession(query)) {
    protein = note('uniprot', await attempt('uniprot', () => uniprot.getEntry(upstream, query)))?.entry;
    const geneId = protein?.ncbiGeneIds[0];
    const ensemblId = protein?.ensemblGeneIds[0];
    [gene, ensemblGene] = await Promise.all([
      geneId ? attempt('ncbi-gene', () => ncbiGene.getGeneSummaries(upstream, [geneId])).then((answer) => note('ncbi-gene', answer)?.genes[0]) : undefined,
      ensemblId ? attempt('ensembl', () => ensembl.lookupId(upstream, ensemblId)).then((answer) => note('ensembl', answer)?.gene) : undefined,
    ]);
  } else {
    const ensemblQuery = isEnsemblGeneId(query)
      ? () => ensembl.lookupId(upstream, unversioned(query))
      : organism.ensemblSpecies && looksLikeSymbol(query)
        ? () => ensembl.lookupSymbol(upstream, organism.ensemblSpecies!, query)
        : undefined;
    [gene, ensemblGene] = await Promise.all([
      attempt('ncbi-gene', () => ncbiGene.findGene(upstream, isEnsemblGeneId(query) ? unversioned(query) : query, organism.taxonId)).then(
        (answer) => note('ncbi-gene', answer)?.gene,
      ),
      ensemblQuery ? attempt('ensembl', ensemblQuery).then((answer) => note('ensembl', answer)?.gene) : undefined,
    ]);
    const symbol = gene?.symbol ?? ensemblGene?.symbol;
    const [found, laterEnsembl] = await Promise.all([
      // Without a symbol an Ensembl id gives UniProt nothing to search for: it is not asked.
      symbol || !isEnsemblGeneId(query)
        ? attempt('uniprot', async () =>
            symbol ? uniprot.findByGene(upstream, symbol, organism.taxonId) : uniprot.findByText(upstream, query, organism.taxonId),
          )
        : undefined,
      // A name resolved by NCBI Gene to a symbol Ensembl was not asked about yet.
      !ensemblGene && !join.hasFailed('ensembl') && gene && organism.ensemblSpecies && gene.symbol.toUpperCase() !== query.toUpperCase()
        ? attempt('ensembl', () => ensembl.lookupSymbol(upstream, organism.ensemblSpecies!, gene!.symbol)).then((answer) => note('ensembl', answer)?.gene)
        : undefined,
    ]);
    protein = note('uniprot', found)?.entry;
    ensemblGene ??= laterEnsembl;
  }

  if (!gene && !ensemblGene && !protein) {
    const outcome = join.outcome<Data>([], `No gene or protein matched "${query}" in taxon ${organism.taxonId}.`);
    return outcome;
  }

  const accession = protein?.accession;
  const symbol = gene?.symbol ?? ensemblGene?.symbol ?? protein?.geneSymbol;
  const domainsFromUniProt = protein && protein.domains.length > 0;
  const [domainAnswer, pathwayAnswer, partnerAnswer] = await Promise.all([
    include.has('domains') && accession && !domainsFromUniProt ? attempt('interpro', () => interpro.entriesForProtein(upstream, accession)) : undefined,
    include.has('pathways') && accession ? attempt('reactome', () => reactome.pathwaysForProtein(upstream, accession, organism.taxonId)) : undefined,
    include.has('interactions') && (protein?.stringId || symbol)
      ? attempt('string', () => string.interactionPartners(upstream, protein?.stringId ?? symbol!, organism.taxonId, PARTNER_LIMIT))
      : undefined,
  ]);
  note('interpro', domainAnswer);
  note('reactome', pathwayAnswer);
  note('string', partnerAnswer);

  const partSources: Record<string, SourceId> = {};
  /** The value with its source noted; an empty list is no value (domains, pathways, partners are present only when found). */
  const from = <T>(part: string, source: SourceId, value: T | undefined): T | undefined => {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) return undefined;
    partSources[part] = source;
    return value;
  };

  let domains: Data['domains'];
  if (include.has('domains')) {
    domains = domainsFromUniProt
      ? from(
          'domains',
          'uniprot',
          protein!.domains.map((domain) => ({ name: domain.name, entry_type: 'domain', start: domain.start, end: domain.end })),
        )
      : from(
          'domains',
          'interpro',
          domainAnswer?.entries.map((entry) => ({ accession: entry.accession, name: entry.name, entry_type: entry.type, start: entry.start, end: entry.end })),
        );
  }
  const pathways = include.has('pathways')
    ? from(
        'pathways',
        'reactome',
        pathwayAnswer?.pathways.map(({ id, name, url }) => ({ id, name, url })),
      )
    : undefined;
  const interactions = include.has('interactions')
    ? from(
        'interactions',
        'string',
        partnerAnswer?.partners.map(({ partner, score }) => ({ partner, score })),
      )
    : undefined;

  const ids = {
    ncbi_gene_id: from('ids.ncbi_gene_id', gene ? 'ncbi-gene' : 'uniprot', gene?.geneId ?? protein?.ncbiGeneIds[0]),
    ensembl_gene_id: from('ids.ensembl_gene_id', ensemblGene ? 'ensembl' : 'uniprot', ensemblGene?.id ?? protein?.ensemblGeneIds[0]),
    uniprot_accession: from('ids.uniprot_accession', 'uniprot', accession),
    hgnc_id: from('ids.hgnc_id', protein?.hgncId ? 'uniprot' : 'ensembl', protein?.hgncId ?? ensemblGene?.hgncId),
  };
  const location = gene?.mapLocation ?? gene?.chromosome ?? ensemblGene?.chromosome;
  const data: Data = {
    ids: Object.fromEntries(Object.entries(ids).filter(([, value]) => value !== undefined)),
    symbol: from('symbol', gene ? 'ncbi-gene' : ensemblGene?.symbol ? 'ensembl' : 'uniprot', symbol),
    name: from('name', gene?.name ? 'ncbi-gene' : 'uniprot', gene?.name ?? protein?.proteinName),
    aliases: from('aliases', 'ncbi-gene', gene?.aliases),
    organism: from('organism', gene?.organism ? 'ncbi-gene' : 'uniprot', gene?.organism ?? protein?.organism ?? organism.scientificName),
    taxon_id: gene?.taxonId ?? protein?.taxonId ?? organism.taxonId,
    summary: from('summary', 'ncbi-gene', gene?.summary),
    function: from('function', 'uniprot', protein?.function),
    chromosome_location: from('chromosome_location', gene ? 'ncbi-gene' : 'ensembl', location),
    protein_length: from('protein_length', 'uniprot', protein?.length),
    domains,
    pathways,
    interactions,
    part_sources: partSources,
    disclaimer: DISCLAIMER,
  };

  const primary: { source: SourceId; nativeId: string; url: string } = gene
    ? { source: 'ncbi-gene', nativeId: gene.geneId, url: ncbiGene.geneUrl(gene.geneId) }
    : protein
      ? { source: 'uniprot', nativeId: protein.accession, url: uniprot.entryUrl(protein.accession) }
      : { source: 'ensembl', nativeId: ensemblGene!.id, url: ensembl.geneUrl(ensemblGene!.id) };
  const retrievedAt = retrieved.find((entry) => entry.source === primary.source)?.at ?? new Date().toISOString();
  const title = [symbol, data.name].filter(Boolean).join(': ');
  const record = makeRecord<Data>(upstream, primary.source, {
    nativeId: primary.nativeId,
    type: 'gene',
    title: title || undefined,
    url: primary.url,
    retrievedAt,
    data,
  });
  const parts = ['ids', ...(['domains', 'pathways', 'interactions'] as const).filter((part) => data[part] !== undefined)];
  return join.outcome(
    [record],
    `${symbol ?? query} (${data.organism ?? `taxon ${data.taxon_id}`}): ${parts.join(', ')} joined from ${count(new Set(Object.values(partSources)).size)}. ${DISCLAIMER}`,
  );
};

const count = (n: number): string => `${n} ${n === 1 ? 'source' : 'sources'}`;
