/**
 * The common shape every literature connector reads its source into, and the helpers the tools use
 * on it: text normalisation for comparisons, and the cross-source de-duplication of search_papers.
 */
import { arxivBase } from './identifiers.ts';

export const LITERATURE_SOURCES = ['openalex', 'pubmed', 'arxiv', 'inspire-hep', 'eric', 'crossref', 'dblp'] as const;
export type LiteratureSource = (typeof LITERATURE_SOURCES)[number];

export interface Notice {
  type: 'retraction' | 'partial_retraction' | 'withdrawal' | 'removal' | 'expression_of_concern' | 'correction';
  doi?: string;
  date?: string;
  source?: string;
  label?: string;
}

export interface Paper {
  /** Native id at the source (for the record id). */
  nativeId: string;
  url?: string;
  title?: string;
  doi?: string;
  authors: string[];
  year?: number;
  publicationDate?: string;
  venue?: string;
  publisher?: string;
  volume?: string;
  issue?: string;
  pages?: string;
  publicationType?: string;
  citationCount?: number;
  isOpenAccess?: boolean;
  openAccessUrl?: string;
  oaStatus?: string;
  license?: string;
  abstract?: string;
  pmid?: string;
  pmcid?: string;
  arxivId?: string;
  openalexId?: string;
  inspireId?: string;
  ericId?: string;
  dblpKey?: string;
  isRetracted?: boolean;
  /** Update notices attached to the work (Crossref `updated-by`). */
  notices?: Notice[];
  /** Years of the work's other publication events (Crossref `published-print`, `published-online`) besides `year`. */
  otherYears?: number[];
  /** The record is itself a notice (retraction, correction, …) about another work (Crossref `update-to`). */
  isUpdateNotice?: boolean;
}

/** Lower-case letters and digits only, accents folded (ø, æ, ß, ł … spelled out), words separated by one space. */
export function normalizeText(text: string | undefined): string {
  if (!text) return '';
  return text
    .replace(/[øØ]/g, 'o')
    .replace(/[æÆ]/g, 'ae')
    .replace(/[œŒ]/g, 'oe')
    .replace(/ß/g, 'ss')
    .replace(/[łŁ]/g, 'l')
    .replace(/[đĐ]/g, 'd')
    .replace(/[þÞ]/g, 'th')
    .replace(/ı/g, 'i')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/<[^>]+>/g, ' ')
    .toLowerCase()
    .replace(/&[a-z]+;/g, ' ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Family name of an author as written "Given Family", "Family, Given" or "Family GI". */
export function familyName(author: string | undefined): string | undefined {
  if (!author) return undefined;
  const text = author.trim();
  if (text.includes(',')) return normalizeText(text.split(',')[0]) || undefined;
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length === 0) return undefined;
  // PubMed style "Ralser M" / "van der Berg JH": trailing initials in capitals.
  const last = words[words.length - 1]!;
  if (words.length > 1 && /^[A-Z]{1,3}$/.test(last)) return normalizeText(words.slice(0, -1).join(' ')) || undefined;
  // "M. Ralser", "Markus Ralser", "van der Berg": particles belong to the family name.
  let start = words.length - 1;
  while (start > 0 && /^(van|von|der|den|de|da|del|della|di|du|la|le|ter|ten|dos|das|bin|al)$/i.test(words[start - 1]!)) start -= 1;
  return normalizeText(words.slice(start).join(' ')) || undefined;
}

/** The key of "same title, same year, same first author" used when no identifier matches. */
export function titleKey(paper: Pick<Paper, 'title' | 'year' | 'authors'>): string | undefined {
  const title = normalizeText(paper.title);
  if (!title || paper.year === undefined) return undefined;
  const first = familyName(paper.authors[0]);
  return `${title}|${paper.year}|${first ?? ''}`;
}

export interface Found {
  source: LiteratureSource;
  paper: Paper;
  retrievedAt: string;
}

export interface MergedPaper {
  /** The first source's record (its source order decides the place in the list). */
  primary: Found;
  merged: Paper;
  foundIn: LiteratureSource[];
}

const ID_KEYS = ['doi', 'arxivId', 'pmid', 'pmcid'] as const;

function keysOf(paper: Paper): string[] {
  const keys: string[] = [];
  if (paper.doi) keys.push(`doi:${paper.doi.toLowerCase()}`);
  if (paper.arxivId) keys.push(`arxiv:${arxivBase(paper.arxivId)!.toLowerCase()}`);
  if (paper.pmid) keys.push(`pmid:${paper.pmid}`);
  if (paper.pmcid) keys.push(`pmcid:${paper.pmcid.toUpperCase()}`);
  const title = titleKey(paper);
  if (title) keys.push(`title:${title}`);
  return keys;
}

/** Fills the fields `into` lacks from `from`; identifiers are all kept, the higher citation count wins. */
function mergeInto(into: Paper, from: Paper): void {
  for (const [key, value] of Object.entries(from) as Array<[keyof Paper, unknown]>) {
    if (value === undefined || key === 'nativeId' || key === 'url') continue;
    if (key === 'authors') {
      if (into.authors.length === 0) into.authors = from.authors;
      continue;
    }
    if (key === 'citationCount') {
      into.citationCount = Math.max(into.citationCount ?? 0, from.citationCount ?? 0);
      continue;
    }
    if (key === 'isOpenAccess') {
      into.isOpenAccess = into.isOpenAccess === true || from.isOpenAccess === true;
      continue;
    }
    if (into[key] === undefined) (into as unknown as Record<string, unknown>)[key] = value;
  }
}

/**
 * De-duplication across sources. Lists are taken round-robin (each source's own relevance order is
 * kept, and every source gets its turn near the top); a paper matches an earlier one by normalised
 * DOI, then arXiv id (without version), PMID or PMCID, then normalised title + year + first author.
 * A merged paper keeps every identifier it was found under and which sources found it. Two papers
 * with the same title but different years share no key and stay two — unless an identifier joins them.
 */
export function deduplicate(lists: Array<{ source: LiteratureSource; papers: Paper[]; retrievedAt: string }>): MergedPaper[] {
  const merged: MergedPaper[] = [];
  const byKey = new Map<string, MergedPaper>();
  const longest = Math.max(0, ...lists.map((list) => list.papers.length));
  for (let rank = 0; rank < longest; rank += 1) {
    for (const list of lists) {
      const paper = list.papers[rank];
      if (!paper) continue;
      const keys = keysOf(paper);
      // An identifier match wins over a title match; among identifiers, the order of ID_KEYS.
      const match = keys.map((key) => byKey.get(key)).find((entry) => entry !== undefined);
      if (match && !conflicting(match.merged, paper)) {
        mergeInto(match.merged, paper);
        if (!match.foundIn.includes(list.source)) match.foundIn.push(list.source);
        for (const key of keysOf(match.merged)) if (!byKey.has(key)) byKey.set(key, match);
        continue;
      }
      const entry: MergedPaper = {
        primary: { source: list.source, paper, retrievedAt: list.retrievedAt },
        merged: { ...paper, authors: [...paper.authors] },
        foundIn: [list.source],
      };
      merged.push(entry);
      for (const key of keys) if (!byKey.has(key)) byKey.set(key, entry);
    }
  }
  return merged;
}

/** Two records that carry different values of one identifier are different works (a preprint's DOI aside). */
function conflicting(a: Paper, b: Paper): boolean {
  for (const key of ID_KEYS) {
    const left = key === 'arxivId' ? arxivBase(a[key]) : a[key];
    const right = key === 'arxivId' ? arxivBase(b[key]) : b[key];
    if (left && right && left.toLowerCase() !== right.toLowerCase()) {
      // arXiv's own DOIs (10.48550/arxiv.…) differ from the journal DOI of the same paper.
      if (key === 'doi' && (left.startsWith('10.48550/') || right.startsWith('10.48550/'))) continue;
      return true;
    }
  }
  return false;
}
