/**
 * UKRI Gateway to Research (`/api/search/project?term=`, `Accept: application/json`; the endpoints
 * moved under /api in June 2024): projects with their fund (GBP, dates as epoch milliseconds), lead
 * organisation and principal investigators in one answer. The search takes only a term: PI,
 * organisation and year filters are applied to its answer. No recording exists: the fields follow
 * GtR's documented search result.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import type { Grant, GrantAnswer, GrantSearch } from './grants.ts';
import { arr, num, obj, str } from './values.ts';

export const SOURCE = 'ukri' as const;
/** GtR's fetchSize is 25 to 100. */
export const MIN_FETCH = 25;
export const MAX_FETCH = 100;

/** An epoch-millisecond fund date as the UK calendar date (1522537200000 is 1 April 2018 in London, 31 March in UTC). */
export function ukDate(value: unknown): string | undefined {
  const ms = num(value);
  if (ms === undefined) return undefined;
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(ms));
}

function personName(person: Record<string, unknown>): string | undefined {
  const name = [str(person.firstName), str(person.otherNames), str(person.surname)].filter(Boolean).join(' ');
  return name || undefined;
}

export function parseProjects(body: unknown): Grant[] {
  const bean = obj(obj(body).facetedSearchResultBean);
  if (!Array.isArray(bean.results)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without search results`);
  return arr(bean.results).flatMap((result) => {
    const composition = obj(result.projectComposition);
    const project = obj(composition.project);
    const reference = str(project.grantReference);
    if (!reference) return [];
    const fund = obj(project.fund);
    const organisation = obj(composition.leadResearchOrganisation);
    const investigators = [...new Set(arr(composition.principalInvestigators).flatMap((person) => personName(person) ?? []))];
    const amount = num(fund.valuePounds);
    return [
      {
        nativeId: reference,
        title: str(project.title),
        url: `https://gtr.ukri.org/projects?ref=${encodeURIComponent(reference)}`,
        data: {
          project_number: reference,
          funder: 'ukri',
          funding_body: str(obj(fund.funder).name) ?? str(project.leadFunder),
          program: str(project.grantCategory),
          pi_name: investigators[0],
          pi_names: investigators.length > 1 ? investigators : undefined,
          organization: str(organisation.name),
          organization_city: str(obj(organisation.address).city),
          organization_country: str(obj(organisation.address).country),
          start_date: ukDate(fund.start),
          end_date: ukDate(fund.end),
          amount,
          currency: amount !== undefined ? 'GBP' : undefined,
          abstract: str(project.abstractText)?.replace(/\s+/g, ' '),
        },
      },
    ];
  });
}

/** The filters GtR's search cannot take, applied to its answer. */
export function keeps(grant: Grant, search: GrantSearch): boolean {
  const data = grant.data;
  const has = (value: string | undefined, wanted: string) => value !== undefined && value.toLowerCase().includes(wanted.toLowerCase());
  if (search.piName && !(data.pi_names ?? [data.pi_name]).some((name) => has(name, search.piName!))) return false;
  if (search.organization && !has(data.organization, search.organization)) return false;
  const startYear = data.start_date ? Number(data.start_date.slice(0, 4)) : undefined;
  if (search.yearFrom !== undefined && (startYear === undefined || startYear < search.yearFrom)) return false;
  if (search.yearTo !== undefined && (startYear === undefined || startYear > search.yearTo)) return false;
  return true;
}

export async function searchProjects(upstream: UpstreamClient, search: GrantSearch): Promise<GrantAnswer> {
  const filtered = search.piName !== undefined || search.organization !== undefined || search.yearFrom !== undefined || search.yearTo !== undefined;
  const fetchSize = filtered ? MAX_FETCH : Math.min(MAX_FETCH, Math.max(MIN_FETCH, search.limit));
  const answer = await upstream.getJson(SOURCE, {
    path: '/search/project',
    searchParams: { term: search.query, page: 1, fetchSize, selectedSortableField: 'score', selectedSortOrder: 'DESC' },
    headers: { accept: 'application/json' },
  });
  return {
    grants: parseProjects(answer.body)
      .filter((grant) => keeps(grant, search))
      .slice(0, search.limit),
    retrievedAt: answer.retrievedAt,
  };
}
