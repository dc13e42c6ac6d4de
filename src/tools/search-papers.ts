/**
 * search_papers: the requested sources asked in parallel, each in its own relevance order, year and
 * open-access filters pushed down where the source supports them and applied again to the merged
 * list (for the sources that cannot filter); then de-duplicated across sources, `limit` applied to
 * the merged list.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { SearchPapersArgs, SearchPapersData } from '../../generated/types.ts';
import * as arxiv from '../connectors/arxiv.ts';
import * as crossref from '../connectors/crossref.ts';
import * as dblp from '../connectors/dblp.ts';
import * as eric from '../connectors/eric.ts';
import * as inspire from '../connectors/inspire-hep.ts';
import * as openalex from '../connectors/openalex.ts';
import * as pubmed from '../connectors/pubmed.ts';
import { deduplicate, type LiteratureSource, type MergedPaper, type Paper } from '../literature/paper.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import type { ToolContext } from './context.ts';
import { assemble, count, fanOut, makeRecord } from './result.ts';

type Search = { query: string; yearFrom?: number; yearTo?: number; openAccessOnly?: boolean; limit: number };
type Answer = { papers: Paper[]; retrievedAt: string };

/** Each source's search, with what it can filter itself. */
export const searchers: Record<LiteratureSource, (upstream: UpstreamClient, search: Search) => Promise<Answer>> = {
  openalex: (upstream, search) => openalex.searchWorks(upstream, search),
  pubmed: (upstream, search) => pubmed.searchArticles(upstream, search),
  arxiv: (upstream, search) => arxiv.searchPapers(upstream, search),
  'inspire-hep': (upstream, search) => inspire.searchLiterature(upstream, search),
  eric: (upstream, search) => eric.searchRecords(upstream, search),
  crossref: (upstream, search) => crossref.searchWorks(upstream, search),
  dblp: (upstream, search) => dblp.searchPublications(upstream, search),
};

export function keeps(paper: Paper, search: Search): boolean {
  if (search.yearFrom !== undefined && (paper.year === undefined || paper.year < search.yearFrom)) return false;
  if (search.yearTo !== undefined && (paper.year === undefined || paper.year > search.yearTo)) return false;
  if (search.openAccessOnly && paper.isOpenAccess !== true) return false;
  return true;
}

export function paperData(entry: MergedPaper): SearchPapersData {
  const paper = entry.merged;
  return {
    doi: paper.doi,
    authors: paper.authors.length > 0 ? paper.authors : undefined,
    year: paper.year,
    publication_date: paper.publicationDate,
    venue: paper.venue,
    publication_type: paper.publicationType,
    citation_count: paper.citationCount,
    is_open_access: paper.isOpenAccess,
    open_access_url: paper.openAccessUrl,
    abstract: paper.abstract,
    pmid: paper.pmid,
    pmcid: paper.pmcid,
    arxiv_id: paper.arxivId,
    openalex_id: paper.openalexId,
    inspire_id: paper.inspireId,
    eric_id: paper.ericId,
    dblp_key: paper.dblpKey,
    found_in: entry.foundIn,
  };
}

export const searchPapers: ToolHandler<SearchPapersArgs, SearchPapersData, ToolContext> = async (args, context) => {
  const search: Search = { query: args.query, yearFrom: args.year_from, yearTo: args.year_to, openAccessOnly: args.open_access_only, limit: args.limit };
  // Ask each source for more than `limit`: filters applied afterwards and duplicates shrink the list.
  const asked = { ...search, limit: Math.min(100, Math.max(args.limit, 10) + 5) };
  const fan = await fanOut(
    args.sources.map((source) => ({ source, run: () => searchers[source](context.upstream, asked) })),
    (source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'),
    context.progress,
  );
  const lists = fan.answered.map(({ source, value }) => ({
    source: source as LiteratureSource,
    papers: (value as Answer).papers,
    retrievedAt: (value as Answer).retrievedAt,
  }));
  const merged = deduplicate(lists)
    .filter((entry) => keeps(entry.merged, search))
    .slice(0, args.limit);
  const records = merged.map((entry) =>
    makeRecord<SearchPapersData>(context.upstream, entry.primary.source, {
      nativeId: entry.primary.paper.nativeId,
      type: 'paper',
      title: entry.merged.title,
      url: entry.primary.paper.url,
      retrievedAt: entry.primary.retrievedAt,
      data: paperData(entry),
    }),
  );
  const filters = [
    args.year_from !== undefined || args.year_to !== undefined ? `from ${args.year_from ?? 'any year'} to ${args.year_to ?? 'now'}` : '',
    args.open_access_only ? 'open access only' : '',
  ].filter(Boolean);
  const summary = `${count(records.length, 'paper')} for "${args.query}"${filters.length > 0 ? ` (${filters.join(', ')})` : ''} from ${lists.map((list) => list.source).join(', ') || 'no source'}, duplicates merged.`;
  return assemble(fan, records, summary);
};
