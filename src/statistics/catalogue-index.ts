/**
 * The one full-text search of find_series (MiniSearch): a source's catalogue (BLS series, Census
 * variables, OECD measures, World Bank indicators, Eurostat tables, IMF indicators) becomes an
 * index of titles with a few further words, searched with field boosts, prefix and fuzzy matches
 * and a short list of synonyms ("inflation" also asks for "consumer price index"). The same search
 * ranks the candidates of all sources together, so one ranking decides across them.
 * Only what the search needs is held: the entry's id and its words in the index, nothing else.
 */
import MiniSearch, { type SearchOptions, type SearchResult } from 'minisearch';
import { singular, STOP_WORDS } from './matching.ts';

export interface CatalogueEntry {
  /** Unique within its index; the caller maps it back to its own facts. */
  id: string;
  title: string;
  /** Words searched with less weight: a description, a concept, the dataset's title. */
  text?: string;
}

/** Words a researcher uses → the words catalogues use for the same thing (added to the query, never replacing it). */
export const SYNONYMS: Readonly<Record<string, string>> = {
  inflation: 'consumer price index',
  cpi: 'consumer price index',
  'consumer prices': 'consumer price index',
  gdp: 'gross domestic product',
  jobless: 'unemployment',
  unemployed: 'unemployment',
  wages: 'earnings',
  wage: 'earnings',
  pay: 'earnings',
  'housing starts': 'new residential construction housing units started',
  'bond yields': 'long-term interest rates government bonds',
  'interest rates': 'interest rate',
  population: 'population total',
};

/** Lower case, stop words dropped, a plural -s removed ("rates" → "rate"); the same for the index and the query. */
export function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  return word.length === 0 || STOP_WORDS.has(word) ? null : singular(word);
}

/** The query with the catalogue words of its synonyms added. */
export function expandQuery(query: string): string {
  const lower = query.toLowerCase();
  const added = Object.entries(SYNONYMS)
    .filter(([phrase]) => new RegExp(`\\b${phrase}\\b`).test(lower))
    .map(([, words]) => words);
  return [query, ...added].join(' ');
}

const SEARCH_OPTIONS = {
  boost: { title: 3, text: 1 },
  combineWith: 'OR' as const,
};

/** Prefix and near-spelling matches only for a word the catalogue does not hold as it is ("unemploy", "unemploymnet"): a word it holds matches itself. */
function looseMatches(known: (term: string) => boolean) {
  return {
    prefix: (term: string) => term.length >= 4 && !known(term),
    fuzzy: (term: string) => (term.length >= 5 && !known(term) ? 0.2 : false),
  };
}

export interface Match {
  id: string;
  score: number;
}

/** A word found in more than this share of a large catalogue's entries narrows nothing: the first pass leaves it out. */
export const COMMON_WORD_SHARE = 0.1;
/** Entries of the first pass ranked again on every word of the query. */
export const SHORTLIST = 300;
/** Below this many entries one pass over every word is cheap enough. */
const TWO_PASSES_FROM = 5000;

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
const termsOf = (text: string) => new Set(tokenize(text).flatMap((token) => processTerm(token) ?? []));

/** An entry as its catalogue keeps it, for a catalogue that holds its entries itself (then the index does not hold them twice). */
export type EntryLookup = (id: string) => (CatalogueEntry & { group?: string }) | undefined;

export class CatalogueIndex {
  private readonly search: MiniSearch<CatalogueEntry>;
  private count = 0;
  /** How many entries hold each word. */
  private readonly entriesWith = new Map<string, number>();
  private readonly groupOf = new Map<string, string>();
  private groups: CatalogueIndex | undefined;

  /**
   * `boosts`: ids of much-used series and how much more they weigh (1 = as any other); `lookup`:
   * the catalogue's own entries, when it keeps them (else the index keeps titles and groups).
   */
  constructor(
    private readonly boosts: ReadonlyMap<string, number> = new Map(),
    private readonly lookup?: EntryLookup,
  ) {
    this.search = new MiniSearch<CatalogueEntry>({ fields: ['title', 'text'], storeFields: lookup ? [] : ['title', 'text'], processTerm });
  }

  get size(): number {
    return this.count;
  }

  /**
   * Names of the groups entries belong to (a survey, a dataset): an entry of a group whose name
   * matches the query weighs up to 1.5 times more, without every entry repeating the name.
   */
  nameGroups(names: Record<string, string>): void {
    this.groups = indexOf(Object.entries(names).map(([id, title]) => ({ id, title })));
  }

  /** Adds entries in chunks, letting other calls run between them (an entry whose id is already there is skipped). */
  async addAll(entries: Iterable<CatalogueEntry & { group?: string }>): Promise<void> {
    let chunk: Array<CatalogueEntry & { group?: string }> = [];
    const flush = async () => {
      this.addNow(chunk);
      chunk = [];
      await new Promise((resolve) => setImmediate(resolve));
    };
    for (const entry of entries) {
      chunk.push(entry);
      if (chunk.length >= 2000) await flush();
    }
    await flush();
  }

  /** Adds a short list at once (the candidates of one call). */
  addNow(entries: Array<CatalogueEntry & { group?: string }>): void {
    const fresh: CatalogueEntry[] = [];
    const added = new Set<string>();
    for (const { group, ...entry } of entries) {
      if (this.search.has(entry.id) || added.has(entry.id)) continue;
      added.add(entry.id);
      fresh.push(entry);
      if (group && !this.lookup) this.groupOf.set(entry.id, group);
      for (const term of termsOf(`${entry.title} ${entry.text ?? ''}`)) this.entriesWith.set(term, (this.entriesWith.get(term) ?? 0) + 1);
    }
    this.search.addAll(fresh);
    this.count += fresh.length;
  }

  /**
   * The entries matching the query, best first, at most `limit`. In a large catalogue the words
   * most entries hold ("all", "adjusted") would make every entry a match to score: the first pass
   * asks only the rarer words, and its best SHORTLIST entries are ranked again on every word.
   */
  find(query: string, limit: number): Match[] {
    const expanded = expandQuery(query);
    const terms = [...termsOf(expanded)];
    if (terms.length === 0) return [];
    const weight = this.weigher(query);
    const options = { ...SEARCH_OPTIONS, ...looseMatches((term) => this.entriesWith.has(term)), boostDocument: weight };
    const common = (term: string) => (this.entriesWith.get(term) ?? 0) > this.count * COMMON_WORD_SHARE;
    const rare = terms.filter((term) => !common(term));
    if (this.count < TWO_PASSES_FROM || rare.length === terms.length) return this.ranked(this.search, expanded, options, limit);
    const first = rare.length > 0 ? rare : [terms.reduce((a, b) => ((this.entriesWith.get(a) ?? 0) <= (this.entriesWith.get(b) ?? 0) ? a : b))];
    const shortlist = this.search.search(first.join(' '), options).slice(0, SHORTLIST);
    const again = new MiniSearch<CatalogueEntry>({ fields: ['title', 'text'], storeFields: [], processTerm });
    again.addAll(
      shortlist.map((result) => {
        const id = String(result.id);
        const kept = this.lookup?.(id);
        return { id, title: kept ? kept.title : String(result.title ?? ''), text: kept ? kept.text : (result.text as string | undefined) };
      }),
    );
    return this.ranked(again, expanded, options, limit);
  }

  private ranked(index: MiniSearch<CatalogueEntry>, query: string, options: SearchOptions, limit: number): Match[] {
    const results: SearchResult[] = index.search(query, options);
    return results.slice(0, limit).map((result) => ({ id: String(result.id), score: result.score }));
  }

  /** The weight of an entry for this query: its boost, times its group's when the group's name matches. */
  private weigher(query: string): (id: unknown) => number {
    const groupMatches = this.groups?.find(query, Number.MAX_SAFE_INTEGER) ?? [];
    const best = groupMatches[0]?.score ?? 0;
    const groupWeight = new Map(groupMatches.map((match) => [match.id, 1 + 0.5 * (match.score / best)]));
    return (id) => {
      const key = String(id);
      const group = this.lookup ? this.lookup(key)?.group : this.groupOf.get(key);
      return (this.boosts.get(key) ?? 1) * (group ? (groupWeight.get(group) ?? 1) : 1);
    };
  }
}

/** A small index built at once (the candidates of one call, a short list). */
export function indexOf(entries: CatalogueEntry[], boosts?: ReadonlyMap<string, number>): CatalogueIndex {
  const index = new CatalogueIndex(boosts);
  index.addNow(entries);
  return index;
}
