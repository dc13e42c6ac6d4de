/**
 * NSF Award Search (`api.nsf.gov/services/v1/awards.json`, the host NSF's own documentation and the real recordings use): awards by
 * keyword, with PI name, awardee and start-date range pushed down. Every value is a string, dates are
 * mm/dd/yyyy, only `printFields` come back, at most 25 per page and no total: pages are followed until
 * a short page or `limit`. Failures can come with status 200 as `response.serviceNotification`.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import type { Grant, GrantAnswer, GrantSearch } from './grants.ts';
import { arr, num, obj, str } from './values.ts';

export const SOURCE = 'nsf' as const;
export const PAGE_SIZE = 25;
export const PRINT_FIELDS = [
  'id',
  'title',
  'abstractText',
  'piFirstName',
  'piLastName',
  'awardeeName',
  'awardeeCity',
  'startDate',
  'expDate',
  'estimatedTotalAmt',
  'fundProgramName',
];

/** "02/01/2019" → "2019-02-01"; undefined for anything else. */
export function isoFromUsDate(value: unknown): string | undefined {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(str(value) ?? '');
  return match ? `${match[3]}-${match[1]}-${match[2]}` : undefined;
}

function notification(body: unknown): string | undefined {
  const notices = arr(obj(obj(body).response).serviceNotification);
  const error = notices.find((notice) => /error/i.test(str(notice.notificationType) ?? 'ERROR'));
  return error ? (str(error.notificationMessage) ?? str(error.notificationCode) ?? 'an error notice without a message') : undefined;
}

/** Throws the failure NSF reports with status 200; called on the answer before it is cached. */
export function refuseNotice(body: unknown): void {
  const failure = notification(body);
  if (failure) throw new UpstreamError(SOURCE, 'http_error', `${SOURCE} answered with an error: ${failure}`);
}

export function parseAwards(body: unknown): Grant[] {
  refuseNotice(body);
  const response = obj(obj(body).response);
  // A search without hits answers a response without an award list.
  const awards = response.award ?? [];
  if (!Array.isArray(awards)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without an award list`);
  return arr(awards).flatMap((award) => {
    const id = str(award.id);
    if (!id) return [];
    const pi = [str(award.piFirstName), str(award.piLastName)].filter(Boolean).join(' ');
    const amount = num(award.estimatedTotalAmt);
    return [
      {
        nativeId: id,
        title: str(award.title),
        url: `https://www.nsf.gov/awardsearch/showAward?AWD_ID=${encodeURIComponent(id)}`,
        data: {
          project_number: id,
          funder: 'nsf',
          program: str(award.fundProgramName),
          pi_name: pi || undefined,
          organization: str(award.awardeeName),
          organization_city: str(award.awardeeCity),
          start_date: isoFromUsDate(award.startDate),
          end_date: isoFromUsDate(award.expDate),
          amount,
          currency: amount !== undefined ? 'USD' : undefined,
          abstract: str(award.abstractText)?.replace(/\s+/g, ' '),
        },
      },
    ];
  });
}

export function searchParams(search: GrantSearch, offset: number): Record<string, string | number | undefined> {
  return {
    keyword: search.query,
    pdPIName: search.piName,
    awardeeName: search.organization,
    startDateStart: search.yearFrom !== undefined ? `01/01/${search.yearFrom}` : undefined,
    startDateEnd: search.yearTo !== undefined ? `12/31/${search.yearTo}` : undefined,
    printFields: PRINT_FIELDS.join(','),
    rpp: PAGE_SIZE,
    offset,
  };
}

export async function searchAwards(upstream: UpstreamClient, search: GrantSearch): Promise<GrantAnswer> {
  const grants: Grant[] = [];
  let retrievedAt: string | undefined;
  for (let offset = 1; grants.length < search.limit; offset += PAGE_SIZE) {
    const answer = await upstream.getJson(SOURCE, { path: '/awards.json', searchParams: searchParams(search, offset) }, refuseNotice);
    retrievedAt ??= answer.retrievedAt;
    const page = parseAwards(answer.body);
    grants.push(...page);
    if (page.length < PAGE_SIZE) break;
  }
  return { grants: grants.slice(0, search.limit), retrievedAt: retrievedAt! };
}
