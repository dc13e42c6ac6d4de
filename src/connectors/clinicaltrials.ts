/**
 * ClinicalTrials.gov Data API v2 (the classic /api/query service is retired): `GET /studies` with
 * query.cond / query.intr / query.term / query.locn, filter.overallStatus (upper-case enum) and
 * filter.advanced for the phase (`AREA[Phase]PHASE3`; there is no filter.phase); `GET /studies/{nct}`.
 * totalCount comes only with countTotal=true and only on the first page.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { path } from '../upstream/path.ts';

export const SOURCE = 'clinicaltrials' as const;
export const MAX_PAGE_SIZE = 1000;

export type Status =
  | 'recruiting'
  | 'not_yet_recruiting'
  | 'active_not_recruiting'
  | 'completed'
  | 'terminated'
  | 'suspended'
  | 'withdrawn'
  | 'enrolling_by_invitation'
  | 'unknown';

/** The spec's status values and the registry's. */
export const REGISTRY_STATUS: Record<Status, string> = {
  recruiting: 'RECRUITING',
  not_yet_recruiting: 'NOT_YET_RECRUITING',
  active_not_recruiting: 'ACTIVE_NOT_RECRUITING',
  completed: 'COMPLETED',
  terminated: 'TERMINATED',
  suspended: 'SUSPENDED',
  withdrawn: 'WITHDRAWN',
  enrolling_by_invitation: 'ENROLLING_BY_INVITATION',
  unknown: 'UNKNOWN',
};

const PHASES: Record<string, Phase> = {
  EARLY_PHASE1: 'early_phase_1',
  PHASE1: 'phase_1',
  PHASE2: 'phase_2',
  PHASE3: 'phase_3',
  PHASE4: 'phase_4',
  NA: 'not_applicable',
};
export type Phase = 'early_phase_1' | 'phase_1' | 'phase_2' | 'phase_3' | 'phase_4' | 'not_applicable';

export interface Criteria {
  condition?: string;
  intervention?: string;
  phase?: 1 | 2 | 3 | 4;
  status?: Status;
  country?: string;
  query?: string;
}

export interface Study {
  nctId: string;
  title: string;
  status: string;
  phases?: Phase[];
  studyType?: string;
  conditions?: string[];
  interventions?: Array<{ name: string; intervention_type?: string }>;
  sponsor?: string;
  enrollment?: number;
  startDate?: string;
  completionDate?: string;
  primaryOutcomes?: Array<{ measure: string; time_frame?: string; outcome_description?: string }>;
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const arr = (value: unknown): Json[] => (Array.isArray(value) ? value.map(obj) : []);
/** Free text is CommonMark with backslash escapes (`\<0.1 IU/ml`): shown without them. */
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().replace(/\\([!-/:-@[-`{-~])/g, '$1') : undefined;
const lower = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value.toLowerCase() : undefined);
const date = (value: unknown): string | undefined => {
  const given = typeof value === 'string' ? value : undefined;
  return given && /^\d{4}-\d{2}(-\d{2})?$/.test(given) ? given : undefined;
};
const nonEmpty = <T>(list: T[]): T[] | undefined => (list.length > 0 ? list : undefined);

export const studyUrl = (nctId: string): string => `https://clinicaltrials.gov/study/${nctId}`;

export function parseStudy(value: unknown): Study | undefined {
  const protocol = obj(obj(value).protocolSection);
  const identification = obj(protocol.identificationModule);
  const nctId = typeof identification.nctId === 'string' ? identification.nctId : undefined;
  if (!nctId || !/^NCT\d{8}$/.test(nctId)) return undefined;
  const status = obj(protocol.statusModule);
  const design = obj(protocol.designModule);
  const phases = Array.isArray(design.phases) ? design.phases.flatMap((phase) => PHASES[String(phase)] ?? []) : [];
  const enrollment = obj(design.enrollmentInfo).count;
  return {
    nctId,
    title: text(identification.briefTitle) ?? text(identification.officialTitle) ?? nctId,
    status: lower(status.overallStatus) ?? 'unknown',
    phases: nonEmpty(phases),
    studyType: lower(design.studyType),
    conditions: nonEmpty(
      Array.isArray(obj(protocol.conditionsModule).conditions)
        ? (obj(protocol.conditionsModule).conditions as unknown[]).flatMap((item) => text(item) ?? [])
        : [],
    ),
    interventions: nonEmpty(
      arr(obj(protocol.armsInterventionsModule).interventions).flatMap((item) => {
        const name = text(item.name);
        return name ? [{ name, intervention_type: lower(item.type) }] : [];
      }),
    ),
    sponsor: text(obj(obj(protocol.sponsorCollaboratorsModule).leadSponsor).name),
    enrollment: typeof enrollment === 'number' && Number.isInteger(enrollment) && enrollment >= 0 ? enrollment : undefined,
    startDate: date(obj(status.startDateStruct).date),
    completionDate: date(obj(status.completionDateStruct).date),
    primaryOutcomes: nonEmpty(
      arr(obj(protocol.outcomesModule).primaryOutcomes).flatMap((item) => {
        const measure = text(item.measure);
        return measure ? [{ measure, time_frame: text(item.timeFrame), outcome_description: text(item.description) }] : [];
      }),
    ),
  };
}

export function parseSearch(body: unknown): { studies: Study[]; totalCount?: number; nextPageToken?: string } {
  const answer = obj(body);
  if (!Array.isArray(answer.studies)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without a studies list`);
  return {
    studies: answer.studies.flatMap((study) => parseStudy(study) ?? []),
    totalCount: typeof answer.totalCount === 'number' ? answer.totalCount : undefined,
    nextPageToken: typeof answer.nextPageToken === 'string' ? answer.nextPageToken : undefined,
  };
}

/** The request parameters for the criteria (the registry's names and values). */
export function searchParams(criteria: Criteria, pageSize: number, pageToken?: string): Record<string, string | number | undefined> {
  return {
    'query.cond': criteria.condition,
    'query.intr': criteria.intervention,
    'query.term': criteria.query,
    'query.locn': criteria.country,
    'filter.overallStatus': criteria.status ? REGISTRY_STATUS[criteria.status] : undefined,
    'filter.advanced': criteria.phase ? `AREA[Phase]PHASE${criteria.phase}` : undefined,
    countTotal: pageToken ? undefined : 'true',
    pageSize,
    pageToken,
    format: 'json',
  };
}

/** Studies up to `limit`, following nextPageToken while pages are needed. */
export async function searchStudies(
  upstream: UpstreamClient,
  criteria: Criteria,
  limit: number,
): Promise<{ studies: Study[]; totalCount?: number; retrievedAt: string }> {
  const studies: Study[] = [];
  let totalCount: number | undefined;
  let retrievedAt = '';
  let pageToken: string | undefined;
  do {
    const answer = await upstream.getJson(SOURCE, {
      path: '/studies',
      searchParams: searchParams(criteria, Math.min(limit - studies.length, MAX_PAGE_SIZE), pageToken),
    });
    retrievedAt ||= answer.retrievedAt;
    const page = parseSearch(answer.body);
    totalCount ??= page.totalCount;
    studies.push(...page.studies);
    pageToken = page.nextPageToken;
  } while (pageToken && studies.length < limit);
  return { studies: studies.slice(0, limit), totalCount, retrievedAt };
}

export async function getStudy(upstream: UpstreamClient, nctId: string): Promise<{ study: Study | undefined; retrievedAt: string }> {
  try {
    const answer = await upstream.getJson(SOURCE, { path: path`/studies/${nctId}`, searchParams: { format: 'json' } });
    return { study: parseStudy(answer.body), retrievedAt: answer.retrievedAt };
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return { study: undefined, retrievedAt: new Date().toISOString() };
    throw error;
  }
}
