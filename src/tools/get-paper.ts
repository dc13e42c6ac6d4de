/**
 * get_paper: one paper by any identifier form of the spec. The sources that know that form are
 * asked first (DOI: Crossref, OpenAlex, Unpaywall; PMID: PubMed efetch, OpenAlex; PMCID: Europe PMC,
 * OpenAlex; arXiv: arXiv, OpenAlex; W…: OpenAlex); once a DOI is known, Crossref (update notices)
 * and Unpaywall (open-access copy) are asked for it too. Metadata is taken in the order Crossref,
 * PubMed, Europe PMC, OpenAlex, arXiv, each filling what the earlier ones lack.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { GetPaperArgs, GetPaperData, SourceId } from '../../generated/types.ts';
import * as arxiv from '../connectors/arxiv.ts';
import * as crossref from '../connectors/crossref.ts';
import * as europepmc from '../connectors/europepmc.ts';
import * as openalex from '../connectors/openalex.ts';
import * as pubmed from '../connectors/pubmed.ts';
import * as unpaywall from '../connectors/unpaywall.ts';
import { ApiError } from '../errors.ts';
import { parsePaperId, type PaperId } from '../literature/identifiers.ts';
import type { Paper } from '../literature/paper.ts';
import type { OpenAccess } from '../connectors/unpaywall.ts';
import type { ToolContext } from './context.ts';
import { assemble, fanOut, makeRecord, type FanOut, type SourceCall } from './result.ts';

type PaperSource = 'crossref' | 'pubmed' | 'europepmc' | 'openalex' | 'arxiv';
type Found = { paper?: Paper; access?: OpenAccess; retrievedAt: string } | undefined;

const ORDER: PaperSource[] = ['crossref', 'pubmed', 'europepmc', 'openalex', 'arxiv'];

function firstCalls(context: ToolContext, id: PaperId): Array<SourceCall<Found>> {
  const upstream = context.upstream;
  switch (id.kind) {
    case 'doi':
      return [
        { source: 'crossref', run: () => crossref.getWork(upstream, id.value) },
        { source: 'openalex', run: () => openalex.getWork(upstream, id) },
        { source: 'unpaywall', run: () => unpaywall.lookupDoi(upstream, id.value) },
      ];
    case 'pmid':
      return [
        { source: 'pubmed', run: () => pubmed.fetchArticle(upstream, id.value) },
        { source: 'openalex', run: () => openalex.getWork(upstream, id) },
      ];
    case 'pmcid':
      return [
        { source: 'europepmc', run: () => europepmc.getByPmcid(upstream, id.value) },
        { source: 'openalex', run: () => openalex.getWork(upstream, id) },
      ];
    case 'arxiv':
      return [
        { source: 'arxiv', run: () => arxiv.getPaper(upstream, id.value) },
        { source: 'openalex', run: () => openalex.getWork(upstream, id) },
      ];
    case 'openalex':
      return [{ source: 'openalex', run: () => openalex.getWork(upstream, id) }];
  }
}

/** Fields of `from` fill those `into` lacks; the highest citation count and any retraction flag win. */
function fill(into: Paper, from: Paper): void {
  for (const [key, value] of Object.entries(from) as Array<[keyof Paper, unknown]>) {
    if (value === undefined || key === 'nativeId' || key === 'url') continue;
    if (key === 'authors') {
      if (into.authors.length === 0) into.authors = from.authors;
    } else if (key === 'citationCount') into.citationCount = Math.max(into.citationCount ?? 0, from.citationCount ?? 0);
    else if (key === 'isRetracted') into.isRetracted = into.isRetracted === true || from.isRetracted === true;
    else if (key === 'isOpenAccess') into.isOpenAccess = into.isOpenAccess === true || from.isOpenAccess === true;
    else if (key === 'notices') into.notices = [...(into.notices ?? []), ...(from.notices ?? [])];
    else if (into[key] === undefined) (into as unknown as Record<string, unknown>)[key] = value;
  }
}

export const getPaper: ToolHandler<GetPaperArgs, GetPaperData, ToolContext> = async (args, context) => {
  const id = parsePaperId(args.id);
  if (!id) {
    throw new ApiError(
      'invalid_input',
      'id: not a recognised identifier; give a DOI (10.… or a doi.org URL), pmid:<number>, PMC<number>, arxiv:<id> or a bare arXiv id, or an OpenAlex id W…',
    );
  }
  const onUnexpected = (source: SourceId, error: unknown) => context.logger.error({ err: error, source }, 'connector failed unexpectedly');
  const fan: FanOut<Found> = await fanOut(firstCalls(context, id), onUnexpected);
  const papers = () => fan.answered.filter((entry) => entry.value?.paper).map((entry) => ({ source: entry.source as PaperSource, ...entry.value! }));
  const asked = new Set<SourceId>([...fan.answered, ...fan.failed].map((entry) => entry.source));
  const doi = papers()
    .map((entry) => entry.paper!.doi)
    .find((value) => value && !value.startsWith('10.48550/'));
  if (doi) {
    const more: Array<SourceCall<Found>> = [];
    if (!asked.has('crossref')) more.push({ source: 'crossref', run: () => crossref.getWork(context.upstream, doi) });
    if (!asked.has('unpaywall')) more.push({ source: 'unpaywall', run: () => unpaywall.lookupDoi(context.upstream, doi) });
    const second = await fanOut(more, onUnexpected);
    fan.answered.push(...second.answered);
    fan.failed.push(...second.failed);
  }
  const found = papers().sort((a, b) => ORDER.indexOf(a.source) - ORDER.indexOf(b.source));
  if (found.length === 0) {
    return assemble(
      fan,
      [],
      `No source knows the paper ${args.id.trim()} (asked ${[...fan.answered, ...fan.failed].map((entry) => entry.source).join(', ')}).`,
    );
  }
  const primary = found[0]!;
  const paper: Paper = { ...primary.paper!, authors: [...primary.paper!.authors] };
  for (const entry of found.slice(1)) fill(paper, entry.paper!);
  const access = fan.answered.find((entry) => entry.source === 'unpaywall')?.value?.access;
  if (access) {
    paper.isOpenAccess = access.isOa;
    paper.oaStatus = access.oaStatus ?? paper.oaStatus;
    paper.openAccessUrl = access.url ?? paper.openAccessUrl;
    paper.license = access.license ?? paper.license;
  }
  const retraction = paper.notices?.find(
    (notice) => notice.type === 'retraction' || notice.type === 'partial_retraction' || notice.type === 'withdrawal' || notice.type === 'removal',
  );
  const foundIn = [...found.map((entry) => entry.source), ...(access ? ['unpaywall' as const] : [])];
  const oaStatus = paper.oaStatus as GetPaperData['oa_status'] | undefined;
  const record = makeRecord<GetPaperData>(context.upstream, primary.source, {
    nativeId: primary.paper!.nativeId,
    type: 'paper',
    title: paper.title,
    url: paper.doi ? `https://doi.org/${paper.doi}` : primary.paper!.url,
    retrievedAt: primary.retrievedAt,
    data: {
      doi: paper.doi,
      authors: paper.authors.length > 0 ? paper.authors : undefined,
      year: paper.year,
      publication_date: paper.publicationDate,
      venue: paper.venue,
      publisher: paper.publisher,
      volume: paper.volume,
      issue: paper.issue,
      pages: paper.pages,
      publication_type: paper.publicationType,
      abstract: paper.abstract,
      citation_count: paper.citationCount,
      is_retracted: paper.isRetracted === true || retraction !== undefined ? true : paper.isRetracted,
      retraction_notice_doi: retraction?.doi,
      is_open_access: paper.isOpenAccess,
      oa_status: oaStatus && ['gold', 'green', 'hybrid', 'bronze', 'diamond', 'closed'].includes(oaStatus) ? oaStatus : undefined,
      open_access_url: paper.openAccessUrl,
      license: paper.license,
      pmid: paper.pmid,
      pmcid: paper.pmcid,
      arxiv_id: paper.arxivId,
      openalex_id: paper.openalexId,
      found_in: foundIn,
    },
  });
  const flags = [record.data.is_retracted ? 'retracted' : '', record.data.open_access_url ? 'with an open-access link' : ''].filter(Boolean).join(', ');
  return assemble(fan, [record], `${paper.title ?? args.id.trim()}${paper.year ? ` (${paper.year})` : ''}${flags ? `, ${flags}` : ''}.`);
};
