/**
 * Matching a parsed reference against candidate papers, and the verdict of verify_references.
 *
 * The title decides whether a candidate can be the cited paper (word-set similarity of normalised
 * titles; an index's "RETRACTED:" prefix and a subtitle the citation left out do not count), the
 * first author's family name and the year support it. Then:
 * - verified: the title matches closely, and year, volume, pages, DOI, journal and first author all agree;
 * - corrected: the title matches closely (the paper exists) but some of those fields differ;
 * - uncertain: a candidate is plausible but the evidence is split: its title matches closely but
 *   neither the first author nor the year does, or its title only comes near while first author
 *   and year both agree;
 * - not_found: no candidate is plausible. A title sharing half its words with a real paper, with
 *   other authors and another year, is not a plausible match.
 * A DOI is never evidence on its own: the work it resolves to must match the cited title.
 */
import { familyName, normalizeText, type Paper } from './paper.ts';
import type { ParsedReference } from './references.ts';

export type Status = 'verified' | 'corrected' | 'not_found' | 'uncertain';
export type DifferenceField = 'year' | 'volume' | 'pages' | 'doi' | 'journal' | 'first_author';
export interface Difference {
  field: DifferenceField;
  cited?: string;
  actual: string;
}

/** The prefix indexes put before a retracted (or withdrawn) paper's title ("RETRACTED: …", "RETRACTED ARTICLE: …", "WITHDRAWN: …"). */
export const RETRACTION_PREFIX = /^\s*(?:\[?retracted(?: article)?\]?|withdrawn)\s*[:.\-–—]\s*/i;

/** The index marks the paper retracted in its title ("RETRACTED: …", "RETRACTED ARTICLE: …"; a withdrawal is not a retraction). */
export function hasRetractedTitle(title: string | undefined): boolean {
  return /^\s*\[?retracted(?: article)?\]?\s*[:.\-–—]/i.test(title ?? '');
}

const titleWords = (text: string | undefined) =>
  normalizeText(text?.replace(RETRACTION_PREFIX, ''))
    .split(' ')
    .filter((word) => word.length > 2 || /\d/.test(word));

/**
 * Title similarity, 0..1: the Dice coefficient of the word sets (short words ignored), taken as
 * 0.9 when the cited title is the actual one without its subtitle ("Deep learning" for "Deep
 * learning: a review"). Retraction prefixes are ignored on both sides.
 */
export function titleSimilarity(cited: string | undefined, actual: string | undefined): number {
  const left = new Set(titleWords(cited));
  const right = new Set(titleWords(actual));
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  const dice = (2 * shared) / (left.size + right.size);
  const main = actual?.replace(RETRACTION_PREFIX, '').split(/:\s/)[0];
  const withoutSubtitle =
    main !== undefined && main !== actual && left.size >= 3 && normalizeText(main) === normalizeText(cited?.replace(RETRACTION_PREFIX, ''));
  return withoutSubtitle ? Math.max(dice, 0.9) : dice;
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
  const words = (text: string) =>
    normalizeText(text.replace(/\(.*?\)/g, ' '))
      .split(' ')
      .filter((word) => word !== '' && !JOURNAL_STOPWORDS.has(word) && !VENUE_NOISE.test(word) && word.length > 1);
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

/** First and last page; "2310-5" is 2310-2315, and "928-943.e22" keeps its e-page suffix. */
function pageRange(pages: string): { first: string; last?: string } {
  const [first = '', last] = pages
    .replace(/\s/g, '')
    .replace(/[–—]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^pp?\./i, '')
    .toLowerCase()
    .split('-');
  if (last === undefined || last === '') return { first };
  const [lastPage = '', suffix = ''] = /^(\d+)(\.e\d+)?$/.exec(last)?.slice(1) ?? [last];
  if (/^\d+$/.test(first) && /^\d+$/.test(lastPage) && lastPage.length < first.length)
    return { first, last: first.slice(0, first.length - lastPage.length) + lastPage + suffix };
  return { first, last };
}

/** Same pages: same first page and, when both give one, the same last page (an e-page suffix given by one side only aside). */
export function samePages(cited: string, actual: string): boolean {
  const a = pageRange(cited);
  const b = pageRange(actual);
  if (a.first !== b.first) return false;
  if (a.last === undefined || b.last === undefined || a.last === b.last) return true;
  return a.last.replace(/\.e\d+$/, '') === b.last.replace(/\.e\d+$/, '') && (!a.last.includes('.e') || !b.last.includes('.e'));
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
  /** The cited year is the paper's or one off it (online and print years differ). */
  yearClose?: boolean;
}

/** Score of one candidate for one reference, 0..1: title 0.7, first author 0.15, year 0.15. */
export function scoreCandidate(reference: ParsedReference, candidate: Candidate): Scored {
  const title = reference.title ? titleSimilarity(reference.title, candidate.paper.title) : titleSimilarity(reference.raw, candidate.paper.title) * 0.9;
  const cited = reference.firstAuthor ? (familyName(reference.firstAuthor) ?? normalizeText(reference.firstAuthor)) : undefined;
  const actual = familyName(candidate.paper.authors[0]);
  const authorMatches = cited && actual ? cited === actual || cited.split(' ').at(-1) === actual.split(' ').at(-1) : undefined;
  const years = [candidate.paper.year, ...(candidate.altYears ?? [])].filter((year): year is number => year !== undefined);
  const yearMatches = reference.year !== undefined && years.length > 0 ? years.includes(reference.year) : undefined;
  const yearClose = reference.year !== undefined && years.length > 0 ? years.some((year) => Math.abs(year - reference.year!) <= 1) : undefined;
  const score =
    0.7 * title +
    0.15 * (authorMatches === undefined ? 0.5 : authorMatches ? 1 : 0) +
    0.15 * (yearMatches === undefined ? 0.5 : yearMatches ? 1 : yearClose ? 0.5 : 0);
  return { ...candidate, score: Math.round(score * 1000) / 1000, title, authorMatches, yearMatches, yearClose };
}

/** Title similarity at or above which the candidate is taken to be the cited paper. */
export const SAME_TITLE = 0.88;
/** Title similarity from which a candidate whose first author and year agree is a plausible match. */
export const NEAR_TITLE = 0.6;

export interface Verdict {
  status: Status;
  best?: Scored;
  differences: Difference[];
}

/** Volumes compared as written, leading zeros and case aside. */
function sameVolume(cited: string, actual: string): boolean {
  const plain = (value: string) =>
    value
      .trim()
      .toLowerCase()
      .replace(/^0+(?=\d)/, '');
  return plain(cited) === plain(actual);
}

/** The fields of the reference that differ from the matched paper. */
export function differencesOf(reference: ParsedReference, match: Scored): Difference[] {
  const paper = match.paper;
  const differences: Difference[] = [];
  if (match.yearMatches === false && paper.year !== undefined) differences.push({ field: 'year', cited: String(reference.year), actual: String(paper.year) });
  if (reference.volume && paper.volume && !sameVolume(reference.volume, paper.volume))
    differences.push({ field: 'volume', cited: reference.volume, actual: paper.volume });
  if (reference.pages && paper.pages && !samePages(reference.pages, paper.pages))
    differences.push({ field: 'pages', cited: reference.pages, actual: paper.pages });
  if (paper.doi && reference.doi !== undefined && reference.doi !== paper.doi) differences.push({ field: 'doi', cited: reference.doi, actual: paper.doi });
  if (reference.journal && paper.venue && !sameJournal(reference.journal, paper.venue))
    differences.push({ field: 'journal', cited: reference.journal, actual: paper.venue });
  if (match.authorMatches === false && paper.authors[0])
    differences.push({ field: 'first_author', cited: reference.firstAuthor, actual: familyNameAsWritten(paper.authors[0]) });
  return differences;
}

/** The family name of "Given Family" / "Family, Given" / "Family GI" as written, particles kept ("van der Maaten"). */
function familyNameAsWritten(author: string): string {
  if (author.includes(',')) return author.split(',')[0]!.trim();
  const words = author.trim().split(/\s+/);
  if (words.length > 1 && /^\p{Lu}{1,3}$/u.test(words.at(-1)!)) return words.slice(0, -1).join(' ');
  let start = words.length - 1;
  while (start > 0 && /^(van|von|der|den|de|da|del|della|di|du|la|le|ter|ten|dos|das|bin|al)$/i.test(words[start - 1]!)) start -= 1;
  return words.slice(start).join(' ');
}

/** How a candidate can stand for the cited paper: as the paper itself, as a split-evidence maybe, or not at all. */
function standing(candidate: Scored): 'same' | 'plausible' | 'none' {
  if (candidate.title >= SAME_TITLE) {
    // A matching title with neither the first author nor the year agreeing is too thin to be sure.
    return candidate.authorMatches === false && candidate.yearMatches === false ? 'plausible' : 'same';
  }
  if (candidate.title >= NEAR_TITLE && candidate.authorMatches === true && candidate.yearClose === true) return 'plausible';
  return 'none';
}

/**
 * The verdict over all candidates (the cited DOI's own record among them, when it resolves: it is
 * compared like any other candidate, and when it is not the cited paper the DOI is reported as
 * differing, or the reference is not found at all).
 */
export function decide(reference: ParsedReference, candidates: Candidate[]): Verdict {
  const scored = candidates.map((candidate) => scoreCandidate(reference, candidate)).sort((a, b) => b.score - a.score || b.title - a.title);
  const same = scored.find((candidate) => standing(candidate) === 'same');
  if (same) {
    const differences = differencesOf(reference, same);
    return { status: differences.length === 0 ? 'verified' : 'corrected', best: same, differences };
  }
  const plausible = scored.find((candidate) => standing(candidate) === 'plausible');
  if (plausible) return { status: 'uncertain', best: plausible, differences: differencesOf(reference, plausible) };
  return { status: 'not_found', best: undefined, differences: [] };
}
