/**
 * search_grants: NIH RePORTER, NSF Award Search and UKRI Gateway to Research asked in parallel (or
 * the one `funder`), each in its own relevance order, with PI, organisation and year filters pushed
 * down where the funder's API takes them (UKRI's are applied to its answer); the lists are
 * interleaved up to `limit`. NIH lists a project once per fiscal year: only its first (most relevant)
 * year is kept, so each record is one project.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { SearchGrantsArgs, SearchGrantsData } from '../../generated/types.ts';
import type { Grant, GrantAnswer, GrantSearch } from '../connectors/grants.ts';
import * as nih from '../connectors/nih.ts';
import * as nsf from '../connectors/nsf.ts';
import * as ukri from '../connectors/ukri.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import type { ToolContext } from './context.ts';
import { assemble, count, fanOut, interleave, makeRecord } from './result.ts';

type Funder = SearchGrantsData['funder'];
export const FUNDERS: readonly Funder[] = ['nih', 'nsf', 'ukri'];

const searchers: Record<Funder, (upstream: UpstreamClient, search: GrantSearch) => Promise<GrantAnswer>> = {
  nih: nih.searchProjects,
  nsf: nsf.searchAwards,
  ukri: ukri.searchProjects,
};

/** One grant per project: NIH's yearly records of one core project are one project. */
function onePerProject(grants: Grant[]): Grant[] {
  const seen = new Set<string>();
  return grants.filter((grant) => {
    const key = `${grant.data.funder}:${grant.coreProject ?? grant.data.project_number}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export const searchGrants: ToolHandler<SearchGrantsArgs, SearchGrantsData, ToolContext> = async (args, context) => {
  const search: GrantSearch = {
    query: args.query,
    piName: args.pi_name,
    organization: args.organization,
    yearFrom: args.year_from,
    yearTo: args.year_to,
    limit: args.limit,
  };
  const funders = args.funder ? [args.funder] : FUNDERS;
  const fan = await fanOut(
    funders.map((funder) => ({ source: funder, run: () => searchers[funder](context.upstream, search) })),
    (source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'),
    context.progress,
  );
  const lists = fan.answered.map(({ source, value }) => onePerProject(value.grants).map((grant) => ({ source, grant, retrievedAt: value.retrievedAt })));
  const records = interleave(lists, args.limit).map(({ source, grant, retrievedAt }) =>
    makeRecord<SearchGrantsData>(context.upstream, source, {
      nativeId: grant.nativeId,
      type: 'grant',
      title: grant.title,
      url: grant.url,
      retrievedAt,
      data: grant.data,
    }),
  );
  const filters = [
    args.pi_name && `PI ${args.pi_name}`,
    args.organization && `at ${args.organization}`,
    (args.year_from !== undefined || args.year_to !== undefined) && `from ${args.year_from ?? 'any year'} to ${args.year_to ?? 'now'}`,
  ].filter(Boolean);
  const summary = `${count(records.length, 'funded project')} for "${args.query}"${filters.length > 0 ? ` (${filters.join(', ')})` : ''} from ${fan.answered.map(({ source }) => source).join(', ') || 'no funder'}.`;
  return assemble(fan, records, summary);
};
