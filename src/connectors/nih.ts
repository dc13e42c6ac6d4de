/**
 * NIH RePORTER API v2 (`POST /projects/search` with a JSON body; GET is not supported): projects by
 * text in title, terms and abstract, with principal investigator, organisation and fiscal years pushed
 * down as criteria. v2 answers nested objects (`organization.org_name`); the v1 answer recorded in 2022
 * had the same fields flat (`org_name`): both are read. `meta.properties.URL` is malformed, so links
 * are built from `appl_id`.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import type { Grant, GrantAnswer, GrantSearch } from './grants.ts';
import { arr, int, isoDate, num, obj, str } from './values.ts';

export const SOURCE = 'nih' as const;
/** RePORTER has projects from fiscal year 1985 on. */
export const FIRST_FISCAL_YEAR = 1985;
export const INCLUDE_FIELDS = [
  'ApplId',
  'ProjectNum',
  'CoreProjectNum',
  'FiscalYear',
  'AwardAmount',
  'ProjectTitle',
  'AbstractText',
  'Organization',
  'PrincipalInvestigators',
  'ContactPiName',
  'AgencyIcAdmin',
  'ActivityCode',
  'ProjectStartDate',
  'ProjectEndDate',
  'ProjectDetailUrl',
];

const oneLine = (text: unknown): string | undefined => str(text)?.replace(/\s+/g, ' ');

export function parseProjects(body: unknown): Grant[] {
  const results = obj(body).results;
  if (!Array.isArray(results)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without results`);
  return arr(results).flatMap((project) => {
    const projectNumber = str(project.project_num);
    if (!projectNumber) return [];
    const applId = int(project.appl_id);
    const organization = obj(project.organization);
    const investigators = arr(project.principal_investigators);
    const names = investigators.flatMap((person) => oneLine(person.full_name) ?? []);
    const contact = investigators.find((person) => person.is_contact_pi === true);
    return [
      {
        nativeId: String(applId ?? projectNumber),
        title: oneLine(project.project_title),
        url: str(project.project_detail_url) ?? (applId !== undefined ? `https://reporter.nih.gov/project-details/${applId}` : undefined),
        coreProject: str(project.core_project_num),
        data: {
          project_number: projectNumber,
          funder: 'nih',
          funding_body: str(obj(project.agency_ic_admin).abbreviation),
          program: str(project.activity_code),
          pi_name: oneLine(contact?.full_name) ?? names[0] ?? str(project.contact_pi_name),
          pi_names: names.length > 1 ? names : undefined,
          organization: str(organization.org_name) ?? str(project.org_name),
          organization_city: str(organization.org_city) ?? str(project.org_city),
          organization_country: str(organization.org_country) ?? str(project.org_country),
          start_date: isoDate(project.project_start_date),
          end_date: isoDate(project.project_end_date),
          fiscal_year: int(project.fiscal_year),
          amount: num(project.award_amount),
          currency: num(project.award_amount) !== undefined ? 'USD' : undefined,
          abstract: oneLine(project.abstract_text),
        },
      },
    ];
  });
}

/** The fiscal years of a range, as RePORTER's `fiscal_years` criterion lists them; undefined without a range. */
export function fiscalYears(search: Pick<GrantSearch, 'yearFrom' | 'yearTo'>, now = new Date()): number[] | undefined {
  if (search.yearFrom === undefined && search.yearTo === undefined) return undefined;
  const from = Math.max(search.yearFrom ?? FIRST_FISCAL_YEAR, FIRST_FISCAL_YEAR);
  const to = search.yearTo ?? now.getUTCFullYear() + 1;
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => from + index);
}

export function searchBody(search: GrantSearch): Record<string, unknown> {
  return {
    criteria: {
      advanced_text_search: { operator: 'and', search_field: 'projecttitle,terms,abstracttext', search_text: search.query },
      pi_names: search.piName ? [{ any_name: search.piName }] : undefined,
      org_names: search.organization ? [search.organization] : undefined,
      fiscal_years: fiscalYears(search),
      exclude_subprojects: true,
    },
    include_fields: INCLUDE_FIELDS,
    offset: 0,
    limit: search.limit,
  };
}

export async function searchProjects(upstream: UpstreamClient, search: GrantSearch): Promise<GrantAnswer> {
  const answer = await upstream.getJson(SOURCE, { path: '/projects/search', json: searchBody(search) });
  return { grants: parseProjects(answer.body), retrievedAt: answer.retrievedAt };
}
