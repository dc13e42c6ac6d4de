/**
 * Matching a parsed reference against candidate papers, and the verdict of verify_references.
 *
 * The title decides whether a candidate is the cited paper (word-set similarity of normalised
 * titles), supported by the first author's family name and the year. Then:
 * - verified: the title matches closely, and year, pages, DOI, journal and first author all agree;
 * - corrected: the title matches closely (the paper exists) but some of those fields differ;
 * - uncertain: the best candidate is close but not close enough to be sure (never a guess);
 * - not_found: no candidate comes near.
 * A DOI is never evidence on its own: the work it resolves to must match the cited title.
 */
import { familyName, normalizeText, type Paper } from './paper.ts';
import type { ParsedReference } from './references.ts';

export type Status = 'verified' | 'corrected' | 'not_found' | 'uncertain';
export type DifferenceField = 'year' | 'pages' | 'doi' | 'journal' | 'first_author';
export interface Difference {
  field: DifferenceField;
  cited?: string;
  actual: string;
}

/** Title similarity: Dice coefficient of the word sets (short words ignored), 0..1. */
export function titleSimilarity(a: string | undefined, b: string | undefined): number {
  const words = (text: string | undefined) => new Set(normalizeText(text).split(' ').filter((word) => word.length > 2 || /\d/.test(word)));
  const left = words(a);
  const right = words(b);
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return (2 * shared) / (left.size + right.size);
}

const JOURNAL_STOPWORDS = new Set(['of', 'the', 'and', 'for', 'in', 'on', 'a', 'an', 'de', 'la', 'und', 'fur']);
/** Words that conference venues carry in one form and not another ("Proc. IEEE Conf." / "2016 IEEE Conference"). */
const VENUE_NOISE = /^(proc|proceedings|conf|conference|ieee|acm|annual|international|intl|int|symp|workshop|\d+(st|nd|rd|th)|\d{4}|[a-z]?\d{2})$/;

/** Whether a cited abbreviation word can stand for a full word: same first letter, letters in order. */
function abbreviates(short: string, long: string): boolean {
  if (short === long) return true;
  if (short[0] !== long[0] || short.length > long.length) return false;
  let at = 0;
  for (const char of long) if (char === short[at]) at += 1;
  return at === short.length;
}

/** Cited venue and actual venue name the same journal (full names, ISO/NLM abbreviations, case and punctuation aside). */
export function sameJournal(cited: string, actual: string): boolean {
  const words = (text: string) => normalizeText(text.replace(/\(.*?\)/g, ' ')).split(' ').filter((word) => word !== '' && !JOURNAL_STOPWORDS.has(word) && !VENUE_NOISE.test(word) && word.length > 1);
  const short = words(cited);
  const long = words(actual);
  if (short.length === 0 || long.length === 0) return true;
  if (short.join('') === long.join('')) return true;
  // Every cited word must abbreviate an actual word, in order; a few actual words may be skipped.
  let at = 0;
  let matched = 0;
  for (const word of short) {
    let found = false;
    for (let index = at; index < long.length; index += 1) {
      if (abbreviates(word, long[index]!)) {
        at = index + 1;
        found = true;
        break;
      }
    }
    if (found) matched += 1;
  }
  return matched === short.length && long.length - matched <= Math.max(1, Math.ceil(long.length / 3));
}

/** First and last page as numbers-with-prefix; "2310-5" is 2310-2315. */
function pageRange(pages: string): { first: string; last?: string } {
  const [first = '', last] = pages.replace(/\s/g, '').replace(/[–—]/g, '-').replace(/^pp?\./i, '').split('-');
  if (last === undefined || last === '') return { first };
  if (/^\d+$/.test(first) && /^\d+$/.test(last) && last.length < first.length) return { first, last: first.slice(0, first.length - last.length) + last };
  return { first, last };
}

export function samePages(cited: string, actual: string): boolean {
  const a = pageRange(cited);
  const b = pageRange(actual);
  if (a.first.toLowerCase() !== b.first.toLowerCase()) return false;
  return a.last === undefined || b.last === undefined || a.last.toLowerCase() === b.last.toLowerCase();
}

export interface Candidate {
  paper: Paper;
  source: 'crossref' | 'openalex';
  /** Years under which the work also appeared (print and online), besides `paper.year`. */
  altYears?: number[];
}

export interface Scored extends Candidate {
  score: number;
  title: number;
  authorMatches?: boolean;
  yearMatches?: boolean;
}

/** Score of one candidate for one reference, 0..1: title 0.7, first author 0.15, year 0.15. */
export function scoreCandidate(reference: ParsedReference, candidate: Candidate): Scored {
  const title = reference.title ? titleSimilarity(reference.title, candidate.paper.title) : titleSimilarity(reference.raw, candidate.paper.title) * 0.9;
  const cited = reference.firstAuthor ? familyName(reference.firstAuthor) ?? normalizeText(reference.firstAuthor) : undefined;
  const actual = familyName(candidate.paper.authors[0]);
  const authorMatches = cited && actual ? cited === actual || cited.split(' ').at(-1) === actual.split(' ').at(-1) : undefined;
  const years = [candidate.paper.year, ...(candidate.altYears ?? [])].filter((year): year is number => year !== undefined);
  const yearMatches = reference.year !== undefined && years.length > 0 ? years.includes(reference.year) : undefined;
  const yearClose = reference.year !== undefined && years.some((year) => Math.abs(year - reference.year!) <= 1);
  const score = 0.7 * title + 0.15 * (authorMatches === undefined ? 0.5 : authorMatches ? 1 : 0) + 0.15 * (yearMatches === undefined ? 0.5 : yearMatches ? 1 : yearClose ? 0.5 : 0);
  return { ...candidate, score: Math.round(score * 1000) / 1000, title, authorMatches, yearMatches };
}

/** Title similarity at or above which the candidate is taken to be the cited paper. */
export const SAME_TITLE = 0.88;
/** Below this (for the best candidate) nothing was found. */
export const NEAR_TITLE = 0.6;

export interface Verdict {
  status: Status;
  best?: Scored;
  differences: Difference[];
}

/** The fields of the reference that differ from the matched paper. */
export function differencesOf(reference: ParsedReference, match: Scored): Difference[] {
  const paper = match.paper;
  const differences: Difference[] = [];
  if (match.yearMatches === false && paper.year !== undefined) differences.push({ field: 'year', cited: String(reference.year), actual: String(paper.year) });
  if (reference.pages && paper.pages && !samePages(reference.pages, paper.pages)) differences.push({ field: 'pages', cited: reference.pages, actual: paper.pages });
  if (paper.doi && reference.doi !== paper.doi && (reference.doi !== undefined)) differences.push({ field: 'doi', cited: reference.doi, actual: paper.doi });
  if (reference.journal && paper.venue && !sameJournal(reference.journal, paper.venue)) differences.push({ field: 'journal', cited: reference.journal, actual: paper.venue });
  if (match.authorMatches === false && paper.authors[0]) differences.push({ field: 'first_author', cited: reference.firstAuthor, actual: familyNameAsWritten(paper.authors[0]) });
  return differences;
}

function familyNameAsWritten(author: string): string {
  if (author.includes(',')) return author.split(',')[0]!.trim();
  const words = author.trim().split(/\s+/);
  if (words.length > 1 && /^[A-Z]{1,3}$/.test(words.at(-1)!)) return words.slice(0, -1).join(' ');
  return words.at(-1)!;
}

/**
 * The verdict over all candidates. `doiTarget` is the work the cited DOI resolves to (when it
 * resolves): it is compared like any other candidate, and when it is not the cited paper the DOI
 * is reported as differing (or the reference is not verified at all).
 */
export function decide(reference: ParsedReference, candidates: Candidate[]): Verdict {
  const scored = candidates.map((candidate) => scoreCandidate(reference, candidate)).sort((a, b) => b.score - a.score || b.title - a.title);
  const best = scored[0];
  if (!best || best.title < NEAR_TITLE) return { status: 'not_found', best: undefined, differences: [] };
  const sameTitle = best.title >= SAME_TITLE;
  // A matching title with neither the author nor the year agreeing is too thin to be sure.
  if (!sameTitle || (best.authorMatches === false && best.yearMatches === false)) return { status: 'uncertain', best, differences: differencesOf(reference, best) };
  const differences = differencesOf(reference, best);
  return { status: differences.length === 0 ? 'verified' : 'corrected', best, differences };
}
