/**
 * The one full-text search of find_series (MiniSearch): a source's catalogue (BLS series, Census
 * variables, OECD measures, World Bank indicators, Eurostat tables, IMF indicators) becomes an
 * index of titles with a few further words, searched with field boosts, prefix and fuzzy matches
 * and a short list of synonyms ("inflation" also asks for "consumer price index"). The same search
 * ranks the candidates of all sources together, so one ranking decides across them.
 * Only what the search needs is held: the entry's id and its words in the index, nothing else.
 */
import MiniSearch, { type SearchResult } from 'minisearch';
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
  prefix: (term: string) => term.length >= 4,
  fuzzy: (term: string) => (term.length >= 6 ? 0.2 : false),
  combineWith: 'OR' as const,
};

export interface Match {
  id: string;
  score: number;
}

export class CatalogueIndex {
  private readonly search = new MiniSearch<CatalogueEntry>({
    fields: ['title', 'text'],
    storeFields: [],
    processTerm,
    searchOptions: SEARCH_OPTIONS,
  });
  private count = 0;

  /** `boosts`: ids of much-used series and how much more they weigh (1 = as any other). */
  constructor(private readonly boosts: ReadonlyMap<string, number> = new Map()) {}

  get size(): number {
    return this.count;
  }

  /** Adds entries in chunks, letting other calls run between them (an entry whose id is already there is skipped). */
  async addAll(entries: Iterable<CatalogueEntry>): Promise<void> {
    let chunk: CatalogueEntry[] = [];
    const flush = async () => {
      const fresh = chunk.filter((entry) => !this.search.has(entry.id));
      this.search.addAll(fresh);
      this.count += fresh.length;
      chunk = [];
      await new Promise((resolve) => setImmediate(resolve));
    };
    const seen = new Set<string>();
    for (const entry of entries) {
      if (seen.has(entry.id)) continue;
      seen.add(entry.id);
      chunk.push(entry);
      if (chunk.length >= 2000) await flush();
    }
    await flush();
  }

  /** Adds a short list at once (the candidates of one call). */
  addNow(entries: CatalogueEntry[]): void {
    const seen = new Set<string>();
    const fresh = entries.filter((entry) => !this.search.has(entry.id) && !seen.has(entry.id) && Boolean(seen.add(entry.id)));
    this.search.addAll(fresh);
    this.count += fresh.length;
  }

  /** The entries matching the query, best first, at most `limit`. */
  find(query: string, limit: number): Match[] {
    const results: SearchResult[] = this.search.search(expandQuery(query), {
      ...SEARCH_OPTIONS,
      boostDocument: (id) => this.boosts.get(String(id)) ?? 1,
    });
    return results.slice(0, limit).map((result) => ({ id: String(result.id), score: result.score }));
  }
}

/** A small index built at once (the candidates of one call, a short list). */
export function indexOf(entries: CatalogueEntry[], boosts?: ReadonlyMap<string, number>): CatalogueIndex {
  const index = new CatalogueIndex(boosts);
  index.addNow(entries);
  return index;
}
