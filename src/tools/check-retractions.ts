/**
 * check_retractions: for each DOI, Crossref's `updated-by` notices (publisher and Retraction Watch)
 * and OpenAlex's retraction flag. The most serious notice decides the status; errata, corrigenda and
 * corrections are `corrected`, an expression of concern is its own status: neither is ever reported
 * as a retraction.
 */
import { tools } from '../../generated/tools.ts';
import PQueue from 'p-queue';
import type { ToolHandler } from '../../generated/routes.ts';
import type { CheckRetractionsArgs, CheckRetractionsData, ToolRecord } from '../../generated/types.ts';
import * as crossref from '../connectors/crossref.ts';
import * as openalex from '../connectors/openalex.ts';
import { ApiError } from '../errors.ts';
import { extractDois, normalizeDoi } from '../literature/identifiers.ts';
import { hasRetractedTitle } from '../literature/match.ts';
import type { Notice, Paper } from '../literature/paper.ts';
import { splitReferences } from '../literature/references.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import type { ToolContext } from './context.ts';
import { assemble, count, describeFailure, fanOutOfItems, makeRecord } from './result.ts';

export const MAX_DOIS = tools.check_retractions.limits.dois;
const PARALLEL_DOIS = 4;

/** Most serious first. */
export const SEVERITY: Notice['type'][] = ['retraction', 'partial_retraction', 'withdrawal', 'removal', 'expression_of_concern', 'correction'];

export function statusOf(notices: Notice[], known: boolean): CheckRetractionsData['status'] {
  const top = notices[0]?.type;
  if (!known) return 'not_found';
  if (top === 'retraction' || top === 'partial_retraction') return 'retracted';
  if (top === 'withdrawal' || top === 'removal') return 'withdrawn';
  if (top === 'expression_of_concern') return 'expression_of_concern';
  if (top === 'correction') return 'corrected';
  return 'no_notice';
}

interface Checked {
  doi: string;
  crossref?: { paper?: Paper; retrievedAt: string } | null;
  openalex?: { paper?: Paper; retrievedAt: string } | null;
  failed: Partial<Record<'crossref' | 'openalex', string>>;
}

async function checkDoi(upstream: UpstreamClient, doi: string): Promise<Checked> {
  const checked: Checked = { doi, failed: {} };
  await Promise.all([
    crossref.getWork(upstream, doi).then(
      (answer) => {
        checked.crossref = answer ?? null;
      },
      (error) => {
        checked.failed.crossref = describeFailure('crossref', error);
      },
    ),
    openalex.getWork(upstream, { kind: 'doi', value: doi }).then(
      (answer) => {
        checked.openalex = answer ?? null;
      },
      (error) => {
        checked.failed.openalex = describeFailure('openalex', error);
      },
    ),
  ]);
  return checked;
}

/**
 * The notices of a work, most serious first: Crossref's `updated-by`, OpenAlex's retraction flag,
 * and the index's "RETRACTED:" title prefix (old retractions often carry no relation at all).
 */
export function noticesOf(work: Paper | undefined, alex: Paper | undefined): Notice[] {
  const notices = [...(work?.notices ?? [])];
  const retractionKnown = () => notices.some((notice) => notice.type === 'retraction' || notice.type === 'partial_retraction');
  if (alex?.isRetracted === true && !retractionKnown()) {
    notices.push({ type: 'retraction', source: 'openalex', label: 'Retracted (OpenAlex flag)' });
  }
  const marked = hasRetractedTitle(work?.title) ? 'crossref' : hasRetractedTitle(alex?.title) ? 'openalex' : undefined;
  if (marked && !retractionKnown()) notices.push({ type: 'retraction', source: marked, label: 'Retracted (title marked RETRACTED by the index)' });
  return notices.sort((a, b) => SEVERITY.indexOf(a.type) - SEVERITY.indexOf(b.type));
}

function recordOf(upstream: UpstreamClient, checked: Checked): ToolRecord<CheckRetractionsData> | undefined {
  const work = checked.crossref?.paper;
  const alex = checked.openalex?.paper;
  if (checked.crossref === undefined && checked.openalex === undefined) return undefined; // neither could be asked
  const notices = noticesOf(work, alex);
  const known = work !== undefined || alex !== undefined;
  const status = statusOf(notices, known);
  const top = notices[0];
  const source = work || !alex ? 'crossref' : 'openalex';
  return makeRecord<CheckRetractionsData>(upstream, source, {
    nativeId: checked.doi,
    type: 'retraction_check',
    title: work?.title ?? alex?.title,
    url: `https://doi.org/${checked.doi}`,
    retrievedAt: (source === 'crossref' ? checked.crossref?.retrievedAt : checked.openalex?.retrievedAt) ?? new Date().toISOString(),
    data: {
      doi: checked.doi,
      status,
      notice_type: top?.type,
      notice_doi: top?.doi,
      notice_date: top?.date,
      notice_source: top?.source,
      notices:
        notices.length > 0
          ? notices.map((notice) => Object.fromEntries(Object.entries(notice).filter(([, value]) => value !== undefined)) as Notice)
          : undefined,
      is_retracted: known ? status === 'retracted' : undefined,
    },
  });
}

/** The DOIs to check and how many references had none. */
export function doisFromArgs(args: CheckRetractionsArgs): { dois: string[]; skipped: number; invalid: string[] } {
  const dois: string[] = [];
  const invalid: string[] = [];
  for (const given of args.dois ?? []) {
    const doi = normalizeDoi(given);
    if (!doi) invalid.push(given);
    else if (!dois.includes(doi)) dois.push(doi);
  }
  let skipped = 0;
  if (args.references) {
    for (const reference of splitReferences(args.references)) {
      const found = extractDois(reference);
      if (found.length === 0) skipped += 1;
      for (const doi of found) if (!dois.includes(doi)) dois.push(doi);
    }
  }
  if (invalid.length > 0)
    throw new ApiError(
      'invalid_input',
      `dois: not a DOI: ${invalid
        .slice(0, 3)
        .map((value) => JSON.stringify(value))
        .join(', ')}`,
    );
  if (dois.length === 0) throw new ApiError('invalid_input', 'references: no DOI found in the text');
  if (dois.length > MAX_DOIS)
    throw new ApiError('invalid_input', `${args.dois ? 'dois' : 'references'}: at most ${MAX_DOIS} DOIs per call; found ${dois.length}`);
  return { dois, skipped, invalid };
}

export const checkRetractions: ToolHandler<CheckRetractionsArgs, CheckRetractionsData, ToolContext> = async (args, context) => {
  const { dois, skipped } = doisFromArgs(args);
  const queue = new PQueue({ concurrency: PARALLEL_DOIS });
  const checked = await Promise.all(dois.map((doi) => queue.add(() => checkDoi(context.upstream, doi)) as Promise<Checked>));
  const fan = fanOutOfItems(checked, ['crossref', 'openalex'], 'DOI');
  const records = checked.map((item) => recordOf(context.upstream, item)).filter((record): record is ToolRecord<CheckRetractionsData> => record !== undefined);
  const tally = (status: string) => records.filter((record) => record.data.status === status).length;
  const parts = [
    `${tally('retracted')} retracted`,
    `${tally('withdrawn')} withdrawn`,
    `${tally('expression_of_concern')} with an expression of concern`,
    `${tally('corrected')} corrected`,
    `${tally('no_notice')} without notices`,
    `${tally('not_found')} unknown`,
  ];
  const unchecked = checked.length - records.length;
  const summary =
    `${count(dois.length, 'DOI')} checked: ${parts.join(', ')}` +
    `${unchecked > 0 ? `; ${unchecked} could not be checked` : ''}${skipped > 0 ? `; ${count(skipped, 'reference')} without a DOI skipped` : ''}.`;
  return assemble(fan, records, summary);
};
