/**
 * verify_references: each reference parsed, candidates asked from Crossref (`query.bibliographic`,
 * and the cited DOI's own record) and OpenAlex (title search, and the DOI's record), scored, and
 * given a status. References are checked a few at a time; the upstream layer paces each source at
 * its published limit. A cited DOI that resolves is not taken as proof: its work must match the
 * cited title and authors like any other candidate.
 */
import { tools } from '../../generated/tools.ts';
import PQueue from 'p-queue';
import type { ToolHandler } from '../../generated/routes.ts';
import type { ToolRecord, VerifyReferencesArgs, VerifyReferencesData } from '../../generated/types.ts';
import * as crossref from '../connectors/crossref.ts';
import * as openalex from '../connectors/openalex.ts';
import { ApiError } from '../errors.ts';
import { decide, hasRetractedTitle, type Candidate, type Verdict } from '../literature/match.ts';
import type { Paper } from '../literature/paper.ts';
import { parseReference, referencesOf, type ParsedReference } from '../literature/references.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import type { ProgressReporter, ToolContext } from './context.ts';
import { assemble, count, describeFailure, fanOutOfItems, makeRecord } from './result.ts';

export const MAX_REFERENCES = tools.verify_references.limits.references;
/** References checked at the same time; each source's own rate limit paces the requests beneath. */
export const PARALLEL_REFERENCES = 4;

type CheckSource = 'crossref' | 'openalex';

export interface Checked {
  index: number;
  reference: ParsedReference;
  verdict: Verdict;
  /** Sources that could not be asked for this reference, with their error. */
  failed: Partial<Record<CheckSource, string>>;
  retrievedAt: string;
}

/** Titles of notices about another paper ("Retraction Note: …", "Editorial Retraction", "Erratum"); "RETRACTED: …" is the paper itself. */
const NOTICE_TITLE =
  /^(retraction\b(?!ed)|correction\b|erratum\b|corrigendum\b|expression of concern\b|notice of retraction\b|editorial (retraction|expression of concern)\b|withdrawal\b)/i;

/** A record that is a notice about another work, never the cited paper itself (unless a notice is what is cited). */
function isNotice(paper: Paper): boolean {
  return paper.isUpdateNotice === true || paper.publicationType === 'retraction' || paper.publicationType === 'erratum' || NOTICE_TITLE.test(paper.title ?? '');
}

/** The citation text sent to Crossref's reference matcher: the raw reference without its DOI or URLs. */
function citationText(reference: ParsedReference): string {
  return reference.raw
    .replace(/(https?:\/\/(dx\.)?doi\.org\/|doi:\s*)?10\.\d{4,9}\/\S+/gi, ' ')
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A title-search term for OpenAlex's filter syntax (commas and colons would end the filter). */
function titleTerm(title: string): string {
  return title
    .replace(/[,:|!]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

async function candidatesFromOpenAlex(upstream: UpstreamClient, reference: ParsedReference): Promise<{ papers: Paper[]; retrievedAt: string }> {
  if (reference.title) {
    const answer = await upstream.getJson(openalex.SOURCE, {
      path: '/works',
      searchParams: { filter: `title.search:${titleTerm(reference.title)}`, per_page: 3, mailto: upstream.contactEmail },
      key: { query: 'api_key' },
      // A filter, even one on title words, is priced as a list (recorded x-ratelimit-cost-usd 0.0001), not as a search=.
      kind: 'list',
    });
    return { papers: openalex.parseWorkList(answer.body), retrievedAt: answer.retrievedAt };
  }
  return openalex.searchWorks(upstream, { query: citationText(reference).slice(0, 300), limit: 3 });
}

/**
 * Years a candidate may also be cited under: Crossref's print and online years; for OpenAlex,
 * which gives only the earliest (online) year, the next one, since papers published online late in
 * a year are printed in the next.
 */
function otherYearsOf(paper: Paper, source: CheckSource): number[] | undefined {
  if (source === 'crossref') return paper.otherYears;
  return paper.year !== undefined ? [paper.year + 1] : undefined;
}

export async function checkReference(upstream: UpstreamClient, index: number, raw: string): Promise<Checked> {
  const reference = parseReference(raw);
  const failed: Checked['failed'] = {};
  const candidates: Candidate[] = [];
  let retrievedAt = '';
  const note = (source: CheckSource, error: unknown) => {
    failed[source] ??= describeFailure(source, error);
  };
  const add = (source: CheckSource, papers: Array<Paper | undefined>, at: string) => {
    retrievedAt ||= at;
    for (const paper of papers) {
      if (!paper) continue;
      if (isNotice(paper) && !NOTICE_TITLE.test(reference.title ?? '')) continue;
      candidates.push({ paper, source, altYears: otherYearsOf(paper, source) });
    }
  };
  const citation = citationText(reference);
  await Promise.all([
    crossref.searchBibliographic(upstream, citation.slice(0, 1000), 3).then(
      (answer) => add('crossref', answer.papers, answer.retrievedAt),
      (error) => note('crossref', error),
    ),
    candidatesFromOpenAlex(upstream, reference).then(
      (answer) => add('openalex', answer.papers, answer.retrievedAt),
      (error) => note('openalex', error),
    ),
    reference.doi
      ? crossref.getWork(upstream, reference.doi).then(
          (answer) => answer && add('crossref', [answer.paper], answer.retrievedAt),
          (error) => note('crossref', error),
        )
      : undefined,
  ]);
  let verdict = decide(reference, candidates);
  // With an index missing, "nothing found" is not known: say uncertain, never not_found by default.
  if (verdict.status === 'not_found' && Object.keys(failed).length > 0) verdict = { ...verdict, status: 'uncertain' };
  return { index, reference, verdict, failed, retrievedAt: retrievedAt || new Date().toISOString() };
}

/** Whether the matched paper is retracted: flagged by its index, or titled so by it. */
export function isRetracted(paper: Paper): boolean {
  return paper.isRetracted === true || hasRetractedTitle(paper.title);
}

function recordOf(upstream: UpstreamClient, checked: Checked): ToolRecord<VerifyReferencesData> {
  const { reference, verdict } = checked;
  const best = verdict.status === 'not_found' ? undefined : verdict.best;
  const paper = best?.paper;
  const notice = paper?.notices?.find(
    (entry) => entry.type === 'retraction' || entry.type === 'partial_retraction' || entry.type === 'withdrawal' || entry.type === 'removal',
  );
  const source = best?.source ?? 'crossref';
  return makeRecord<VerifyReferencesData>(upstream, source, {
    nativeId: paper ? (paper.doi ?? paper.nativeId) : `reference-${checked.index}`,
    type: 'reference_check',
    title: paper?.title ?? reference.title,
    url: paper?.doi ? `https://doi.org/${paper.doi}` : paper?.url,
    retrievedAt: checked.retrievedAt,
    data: {
      index: checked.index,
      status: verdict.status,
      input: {
        raw: reference.raw,
        authors: reference.authors,
        first_author: reference.firstAuthor,
        title: reference.title,
        year: reference.year,
        journal: reference.journal,
        volume: reference.volume,
        issue: reference.issue,
        pages: reference.pages,
        doi: reference.doi,
      } as VerifyReferencesData['input'],
      matched: paper
        ? (Object.fromEntries(
            Object.entries({
              doi: paper.doi,
              title: paper.title,
              authors: paper.authors.length > 0 ? paper.authors : undefined,
              first_author: firstFamily(paper.authors[0]),
              year: paper.year,
              journal: paper.venue,
              volume: paper.volume,
              issue: paper.issue,
              pages: paper.pages,
              publisher: paper.publisher,
              url: paper.doi ? `https://doi.org/${paper.doi}` : paper.url,
            }).filter(([, value]) => value !== undefined),
          ) as VerifyReferencesData['matched'])
        : undefined,
      match_source: best?.source,
      score: best?.score,
      differences: best
        ? verdict.differences.map((difference) => (difference.cited === undefined ? { field: difference.field, actual: difference.actual } : difference))
        : undefined,
      retracted: paper ? isRetracted(paper) : undefined,
      retraction_notice_doi: notice?.doi,
    },
  });
}

function firstFamily(author: string | undefined): string | undefined {
  if (!author) return undefined;
  if (author.includes(',')) return author.split(',')[0]!.trim();
  const words = author.trim().split(/\s+/);
  if (words.length > 1 && /^[A-Z]{1,3}$/.test(words.at(-1)!)) return words.slice(0, -1).join(' ');
  return words.at(-1);
}

/** The references of the arguments, refusing more than 50 (a text block is counted after splitting). */
export function referencesFromArgs(args: VerifyReferencesArgs): string[] {
  const references = referencesOf(args.references);
  if (references.length === 0) throw new ApiError('invalid_input', 'references: no reference found in the text');
  if (references.length > MAX_REFERENCES) {
    throw new ApiError('invalid_input', `references: at most ${MAX_REFERENCES} references per call; the text holds ${references.length}`);
  }
  return references;
}

/** Checks every reference, a few at a time, reporting each one checked; once `signal` aborts, the references not yet begun are never begun. */
export async function checkAll(
  upstream: UpstreamClient,
  references: string[],
  options: { signal?: AbortSignal; progress?: ProgressReporter } = {},
): Promise<Checked[]> {
  const queue = new PQueue({ concurrency: PARALLEL_REFERENCES });
  let done = 0;
  const check = async (raw: string, index: number): Promise<Checked> => {
    options.signal?.throwIfAborted();
    const checked = await checkReference(upstream, index + 1, raw);
    done += 1;
    options.progress?.(done, references.length, `${done} of ${count(references.length, 'reference')} checked`);
    return checked;
  };
  return Promise.all(references.map((raw, index) => queue.add(() => check(raw, index)) as Promise<Checked>));
}

export const verifyReferences: ToolHandler<VerifyReferencesArgs, VerifyReferencesData, ToolContext> = async (args, context) => {
  const references = referencesFromArgs(args);
  const checked = await checkAll(context.upstream, references, { signal: context.signal, progress: context.progress });
  const fan = fanOutOfItems(checked, ['crossref', 'openalex'], 'reference');
  const tally = (status: string) => checked.filter((item) => item.verdict.status === status).length;
  const records = checked.map((item) => recordOf(context.upstream, item));
  const retracted = records.filter((record) => record.data.retracted === true).length;
  const summary =
    `${count(checked.length, 'reference')} checked: ${tally('verified')} verified, ${tally('corrected')} corrected, ${tally('not_found')} not found, ${tally('uncertain')} uncertain` +
    `${retracted > 0 ? `; ${count(retracted, 'retracted paper')}` : ''}.`;
  return assemble(fan, records, summary);
};
