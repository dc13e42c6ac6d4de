/**
 * The one full-text search of find_series: a source's catalogue (BLS series, Census variables,
 * OECD measures, World Bank indicators, Eurostat tables, IMF indicators) becomes an index of titles
 * with a few further words, searched with field boosts, prefix and fuzzy matches and a short list of
 * synonyms ("inflation" also asks for "consumer price index"). The same search ranks the candidates
 * of all sources together, so one ranking decides across them.
 *
 * A small index (the candidates of one call, a list of a few thousand entries) is a MiniSearch
 * index in memory. A large catalogue (STORED_FROM entries and more: BLS's series lists, tens to
 * hundreds of thousands of series) is kept out of the JavaScript heap, in an SQLite database of its
 * own with an FTS5 full-text table (a private temporary file, which SQLite unlinks as it opens it:
 * nothing stays on disk once the process ends): the index, the entries' titles and what the catalogue
 * keeps of each entry live there, filled in one transaction as the catalogue is read. Its search
 * asks FTS5 for the SHORTLIST best entries (bm25 with the title weighing more, the boosts and the
 * group weights applied) and the best of the prefix and near-spelling matches apart, then ranks
 * these again with MiniSearch, each word weighed by its rarity in the whole catalogue.
 */
import Database from 'better-sqlite3';
import { distance } from 'fastest-levenshtein';
import MiniSearch, { type SearchOptions, type SearchResult } from 'minisearch';
import { singular, STOP_WORDS } from './matching.ts';
import { nextTurn } from '../clock.ts';

export interface CatalogueEntry {
  /** Unique within its index; the caller maps it back to its own facts. */
  id: string;
  title: string;
  /** Words searched with less weight: a description, a concept, the dataset's title. */
  text?: string;
}

/** An entry as a catalogue adds it: the group it belongs to (a survey, a dataset), and what the catalogue keeps of it as one string (`data`), given back by `entry`. */
export interface IndexedEntry extends CatalogueEntry {
  group?: string;
  data?: string;
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

/** How much more a word of the title weighs than one of the other words. */
const FIELD_WEIGHTS = { title: 3, text: 1 };

const SEARCH_OPTIONS = {
  boost: FIELD_WEIGHTS,
  combineWith: 'OR' as const,
};

/** A word the catalogue does not hold as it is is matched by prefix from this length, and by near spelling from NEAR_FROM. */
const PREFIX_FROM = 4;
const NEAR_FROM = 5;
/** Edits allowed per letter of a near spelling (MiniSearch's fuzzy share; at most 6 edits). */
const NEAR_SHARE = 0.2;
const nearDistance = (term: string) => Math.min(6, Math.round(term.length * NEAR_SHARE));

/** Prefix and near-spelling matches only for a word the catalogue does not hold as it is ("unemploy", "unemploymnet"): a word it holds matches itself. */
function looseMatches(known: (term: string) => boolean) {
  return {
    prefix: (term: string) => term.length >= PREFIX_FROM && !known(term),
    fuzzy: (term: string) => (term.length >= NEAR_FROM && !known(term) ? NEAR_SHARE : false),
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
/** Entries of the first pass found by prefix or near spelling only, ranked again beside the SHORTLIST. */
const LOOSE_SHORTLIST = 100;
/**
 * From this many entries an index is kept in a database file instead of the heap
 * (IndexOptions.storedFrom), and searched in two passes; below it one pass over every word is cheap.
 */
export const STORED_FROM = 5000;
/** Entries added between two turns of the event loop, and the work on a large index between two turns once all are in. */
const CHUNK = 1000;
/**
 * Characters (titles and further words) added between two turns at most: a thousand short titles
 * (BLS's series) are quick to index, a thousand long descriptions (OECD's dataflows) are not.
 */
const CHUNK_CHARACTERS = 100_000;
/**
 * Entries indexed in the heap between two turns: fewer, as each is indexed then and there (OECD's
 * dataflows, descriptions of up to 3,700 characters, took 90 ms or more per thousand).
 */
const HEAP_CHUNK = 50;
const MERGE_PAGES = 200;
const TERMS_PER_TURN = 200;

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
const termsOf = (text: string) => new Set(tokenize(text).flatMap((token) => processTerm(token) ?? []));
/** The words of a text as the database's full-text table holds them: the terms MiniSearch would index, in order. */
const indexedWords = (text: string | undefined) =>
  text
    ? tokenize(text)
        .flatMap((token) => processTerm(token) ?? [])
        .join(' ')
    : '';
/** A term FTS5 can ask for: one with a letter or digit (its tokenizer drops the rest). */
const askable = (term: string) => /[\p{L}\p{N}]/u.test(term);
/** A word as an FTS5 string (tokenized as the index's words were). */
const quoted = (word: string) => `"${word.replace(/"/g, '""')}"`;

/**
 * A small index: MiniSearch over the entries, which are held with it without their further words
 * (`text`, a description of up to a few thousand characters: the index has its words, and a search
 * needs no more).
 */
class HeapEntries {
  readonly entries = new Map<string, Omit<IndexedEntry, 'text'>>();
  readonly search = new MiniSearch<CatalogueEntry>({ fields: ['title', 'text'], storeFields: [], processTerm });
  /** How many entries hold each word. */
  private readonly holding = new Map<string, number>();

  add(entries: IndexedEntry[]): void {
    const fresh: IndexedEntry[] = [];
    for (const entry of entries) {
      if (this.entries.has(entry.id)) continue;
      this.entries.set(entry.id, { id: entry.id, title: entry.title, group: entry.group, data: entry.data });
      fresh.push(entry);
      for (const term of termsOf(`${entry.title} ${entry.text ?? ''}`)) this.holding.set(term, (this.holding.get(term) ?? 0) + 1);
    }
    this.search.addAll(fresh);
  }

  entriesWith(term: string): number {
    return this.holding.get(term) ?? 0;
  }
}

/** A database connection is closed (and its temporary file deleted) once its index is no longer used. */
const closeWhenCollected = new FinalizationRegistry<Database.Database>((db) => {
  if (db.open) db.close();
});

interface ShortlistRow {
  id: string;
  title: string;
  text: string | null;
  grp: string | null;
}

/** A large index: entries and their words in an SQLite database (FTS5) of its own, out of the heap. */
class StoredEntries {
  private readonly db: Database.Database;
  private count = 0;
  private readonly insertEntry: Database.Statement;
  private readonly insertWords: Database.Statement;
  private readonly entryOf: Database.Statement<[string], ShortlistRow & { data: string | null }>;
  private readonly holding: Database.Statement<[string], number>;
  private readonly vocabulary: Database.Statement<[number, number], string>;
  private readonly totalChanges: Database.Statement<[], number>;
  private readonly merge: Database.Statement;
  private readonly countTerms: Database.Statement<[string], { term: string; entries: number }>;
  private readonly insertTerm: Database.Statement;
  /** The shortlist's statements by the number of groups weighed. */
  private readonly shortlists = new Map<number, Database.Statement<unknown[], ShortlistRow>>();

  constructor(private readonly boosts: ReadonlyMap<string, number>) {
    // An empty name: a private temporary database on disk, deleted when closed (SQLite unlinks it as it opens it).
    this.db = new Database('');
    closeWhenCollected.register(this, this.db);
    // A cache: nothing to recover after a crash, and a small page cache (the file's pages stay in the system's).
    this.db.pragma('journal_mode = MEMORY');
    this.db.pragma('synchronous = OFF');
    this.db.pragma('cache_size = -512');
    this.db.exec(`
      CREATE TABLE entries (id TEXT NOT NULL UNIQUE, title TEXT NOT NULL, text TEXT, grp TEXT, boost REAL NOT NULL, data TEXT);
      CREATE VIRTUAL TABLE words USING fts5(title, text, content='', tokenize='unicode61 remove_diacritics 0');
      CREATE VIRTUAL TABLE vocabulary USING fts5vocab(words, 'row');
    `);
    this.insertEntry = this.db.prepare('INSERT OR IGNORE INTO entries (id, title, text, grp, boost, data) VALUES (?, ?, ?, ?, ?, ?)');
    this.insertWords = this.db.prepare('INSERT INTO words (rowid, title, text) VALUES (?, ?, ?)');
    this.entryOf = this.db.prepare('SELECT id, title, text, grp, data FROM entries WHERE id = ?');
    // The words with how many entries hold each, filled from FTS5's vocabulary once the entries are in: looked up at every search.
    this.db.exec('CREATE TABLE terms (term TEXT PRIMARY KEY, length INTEGER NOT NULL, entries INTEGER NOT NULL) WITHOUT ROWID');
    this.db.exec('CREATE INDEX terms_by_length ON terms (length, term)');
    this.holding = this.db.prepare<[string], number>('SELECT entries FROM terms WHERE term = ?').pluck();
    this.vocabulary = this.db.prepare<[number, number], string>('SELECT term FROM terms WHERE length BETWEEN ? AND ?').pluck();
    this.totalChanges = this.db.prepare<[], number>('SELECT total_changes()').pluck();
    this.merge = this.db.prepare(`INSERT INTO words (words, rank) VALUES ('merge', -${MERGE_PAGES})`);
    this.countTerms = this.db.prepare<[string], { term: string; entries: number }>(
      `SELECT term, doc AS entries FROM vocabulary WHERE term > ? ORDER BY term LIMIT ${TERMS_PER_TURN}`,
    );
    this.insertTerm = this.db.prepare('INSERT INTO terms (term, length, entries) VALUES (@term, length(@term), @entries)');
  }

  get size(): number {
    return this.count;
  }

  /** Adds entries within the open transaction (begun by the first add, ended by `commit`). */
  add(entries: Iterable<IndexedEntry>): void {
    if (!this.db.inTransaction) this.db.exec('BEGIN');
    for (const { id, title, text, group, data } of entries) {
      const added = this.insertEntry.run(id, title, text ?? null, group ?? null, this.boosts.get(id) ?? 1, data ?? null);
      if (added.changes === 0) continue;
      this.insertWords.run(added.lastInsertRowid, indexedWords(title), indexedWords(text));
      this.count += 1;
    }
  }

  /**
   * Ends the transaction: the index's segments merged into one (faster to search), and its words
   * counted, a step at a time with turns of the event loop between (`turn`) on a large catalogue.
   */
  async commit(turn: () => Promise<unknown>): Promise<void> {
    if (!this.db.inTransaction) return;
    // FTS5's "merge" with a negative size merges whatever segments there are, that many pages at most; a step that changes
    // fewer than two rows found nothing left to merge.
    for (;;) {
      const before = this.totalChanges.get()!;
      this.merge.run();
      if (this.totalChanges.get()! - before < 2) break;
      await turn();
    }
    this.db.exec('DELETE FROM terms');
    for (let last = ''; ;) {
      const counted = this.countTerms.all(last);
      if (counted.length === 0) break;
      for (const row of counted) this.insertTerm.run(row);
      last = counted.at(-1)!.term;
      await turn();
    }
    this.db.exec('COMMIT');
  }

  rollback(): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
  }

  entry(id: string): IndexedEntry | undefined {
    const row = this.entryOf.get(id);
    return row && { id: row.id, title: row.title, text: row.text ?? undefined, group: row.grp ?? undefined, data: row.data ?? undefined };
  }

  entriesWith(term: string): number {
    return this.holding.get(term) ?? 0;
  }

  /** The words of the index within `distance` edits of `term`. */
  near(term: string, edits: number): string[] {
    return this.vocabulary.all(term.length - edits, term.length + edits).filter((word) => word !== term && distance(word, term) <= edits);
  }

  /**
   * The `limit` best entries for an FTS5 query: bm25 with the fields' weights, times the entry's
   * boost and its group's weight (bm25 is negative, lower is better).
   */
  shortlist(match: string, groupWeights: ReadonlyMap<string, number>, limit: number): ShortlistRow[] {
    const groups = [...groupWeights];
    let statement = this.shortlists.get(groups.length);
    if (!statement) {
      const groupWeight = groups.length === 0 ? '1' : `(CASE e.grp ${groups.map(() => 'WHEN ? THEN ?').join(' ')} ELSE 1 END)`;
      statement = this.db.prepare<unknown[], ShortlistRow>(
        `SELECT e.id, e.title, e.text, e.grp
         FROM (SELECT rowid AS hit, bm25(words, ${FIELD_WEIGHTS.title}, ${FIELD_WEIGHTS.text}) AS rank FROM words WHERE words MATCH ?) AS m
         JOIN entries AS e ON e.rowid = m.hit
         ORDER BY m.rank * e.boost * ${groupWeight}
         LIMIT ?`,
      );
      this.shortlists.set(groups.length, statement);
    }
    return statement.all(match, ...groups.flat(), limit);
  }
}

export interface IndexOptions {
  /** From how many entries the index is kept in a database file rather than the heap (STORED_FROM; 0: always). */
  storedFrom?: number;
}

export class CatalogueIndex {
  private heap: HeapEntries | undefined = new HeapEntries();
  private stored: StoredEntries | undefined;
  private groups: CatalogueIndex | undefined;

  /** `boosts`: ids of much-used series and how much more they weigh (1 = as any other). */
  constructor(
    private readonly boosts: ReadonlyMap<string, number> = new Map(),
    private readonly options: IndexOptions = {},
  ) {}

  get size(): number {
    return this.stored?.size ?? this.heap!.entries.size;
  }

  /** Whether the index is kept in a database file (a large catalogue) rather than the heap. */
  get isStored(): boolean {
    return this.stored !== undefined;
  }

  /**
   * Names of the groups entries belong to (a survey, a dataset): an entry of a group whose name
   * matches the query weighs up to 1.5 times more, without every entry repeating the name.
   */
  nameGroups(names: Record<string, string>): void {
    this.groups = indexOf(Object.entries(names).map(([id, title]) => ({ id, title })));
  }

  /**
   * Adds entries as they are read, in chunks, letting other calls run between them (an entry whose
   * id is already there is skipped). A large catalogue is written in one transaction, ended here.
   */
  async addAll(entries: Iterable<IndexedEntry> | AsyncIterable<IndexedEntry>): Promise<void> {
    const filling = this.fill();
    try {
      for await (const entry of entries) await filling.add([entry]);
      await filling.end();
    } catch (error) {
      filling.abandon();
      throw error;
    }
  }

  /**
   * Fills the index as entries arrive (addAll, for entries pushed rather than pulled): `add` any
   * number at a time, then `end` once all are in, or `abandon` on failure. Until the entries reach
   * STORED_FROM they are only held, not indexed: a large catalogue never builds a heap index that
   * it would drop once it moves to the database (the dropped index was most of what reading BLS's
   * lists left in the heap's pages: docs/benchmarks.md, run 35).
   */
  fill(): { add(entries: Iterable<IndexedEntry>): Promise<void>; end(): Promise<void>; abandon(): void } {
    // Filled once: the heap keeps no further words of its entries, which a later move to a database would need.
    if (this.size > 0) throw new Error('a catalogue index is filled once');
    let chunk: IndexedEntry[] = [];
    let characters = 0;
    let held: IndexedEntry[] = [];
    const take = () => {
      if (this.stored) this.stored.add(chunk);
      else {
        held.push(...chunk);
        if (this.heap!.entries.size + held.length >= (this.options.storedFrom ?? STORED_FROM)) {
          this.moveToStore(held);
          held = [];
        }
      }
      chunk = [];
      characters = 0;
    };
    return {
      add: async (entries) => {
        for (const entry of entries) {
          chunk.push(entry);
          characters += entry.title.length + (entry.text?.length ?? 0);
          if (chunk.length < CHUNK && characters < CHUNK_CHARACTERS) continue;
          take();
          await nextTurn();
        }
      },
      end: async () => {
        take();
        for (let start = 0; start < held.length; start += HEAP_CHUNK) {
          if (start > 0) await nextTurn();
          this.heap!.add(held.slice(start, start + HEAP_CHUNK));
        }
        held = [];
        await this.stored?.commit(nextTurn);
      },
      abandon: () => this.stored?.rollback(),
    };
  }

  /** Adds a short list at once (the candidates of one call): kept in the heap. */
  addNow(entries: IndexedEntry[]): void {
    if (this.stored) throw new Error('a catalogue kept in a database file is filled with addAll');
    this.heap!.add(entries);
  }

  /** An entry as it was added (with its group and data; its further words only from a database file). */
  entry(id: string): IndexedEntry | undefined {
    if (this.stored) return this.stored.entry(id);
    const found = this.heap!.entries.get(id);
    return found && { id: found.id, title: found.title, group: found.group, data: found.data };
  }

  /** The index leaves the heap for a database, with the entries held so far (the heap has indexed none: it is filled at the end). */
  private moveToStore(entries: IndexedEntry[]): void {
    this.stored = new StoredEntries(this.boosts);
    this.stored.add(entries);
    this.heap = undefined;
  }

  /**
   * The entries matching the query, best first, at most `limit`. A small index is ranked in one
   * pass. In a large catalogue the words most entries hold ("all", "adjusted") would make every
   * entry a match to score: the first pass (FTS5) asks only the rarer words, and its best SHORTLIST
   * entries are ranked again on every word, each word weighing as rare as it is in the catalogue.
   */
  find(query: string, limit: number): Match[] {
    const expanded = expandQuery(query);
    const terms = [...termsOf(expanded)];
    if (terms.length === 0) return [];
    const groupWeights = this.groupWeights(query);
    const weigh = (id: string, group: string | undefined) => (this.boosts.get(id) ?? 1) * (group ? (groupWeights.get(group) ?? 1) : 1);
    const held = new Map<string, number>();
    const entriesWith = (term: string) => {
      if (!held.has(term)) held.set(term, (this.stored ?? this.heap!).entriesWith(term));
      return held.get(term)!;
    };
    const options = { ...SEARCH_OPTIONS, ...looseMatches((term) => entriesWith(term) > 0) };
    if (!this.stored) {
      const { entries, search } = this.heap!;
      return ranked(search, expanded, { ...options, boostDocument: (id) => weigh(String(id), entries.get(String(id))?.group) }, limit);
    }

    // A word fewer entries hold than the shortlist takes crowds nothing out, however large its share.
    const common = (term: string) => entriesWith(term) > Math.max(this.size * COMMON_WORD_SHARE, SHORTLIST);
    const rare = terms.filter((term) => !common(term));
    const first = rare.length > 0 ? rare : [terms.reduce((a, b) => (entriesWith(a) <= entriesWith(b) ? a : b))];
    // The words the catalogue holds, and apart the prefix and near-spelling matches of those it does not: these weigh less (MiniSearch
    // discounts them when it ranks the shortlist again), so they get a shortlist of their own rather than crowding out exact matches.
    const exact = first.filter((term) => entriesWith(term) > 0).map(quoted);
    const loose = first.filter((term) => entriesWith(term) === 0).flatMap((term) => this.looseAlternatives(term));
    const rows = [
      ...(exact.length > 0 ? this.stored.shortlist(exact.join(' OR '), groupWeights, SHORTLIST) : []),
      ...(loose.length > 0 ? this.stored.shortlist(loose.join(' OR '), groupWeights, exact.length > 0 ? LOOSE_SHORTLIST : SHORTLIST) : []),
    ];
    if (rows.length === 0) return [];
    const shortlist = new Map(rows.map((row) => [row.id, { id: row.id, title: row.title, text: row.text ?? undefined, group: row.grp ?? undefined }]));

    // Ranked in an index of the shortlist alone, a word most of the shortlist holds would weigh little however rare it is in the
    // catalogue (and a rare near spelling too much): each match is weighed by its word's rarity in the catalogue over that in the shortlist.
    const inShortlist = new Map<string, number>();
    for (const entry of shortlist.values())
      for (const term of termsOf(`${entry.title} ${entry.text ?? ''}`)) inShortlist.set(term, (inShortlist.get(term) ?? 0) + 1);
    const rarity = (count: number, holding: number) => Math.log(1 + (count - holding + 0.5) / (holding + 0.5));
    const corrections = new Map<string, number>();
    const correction = (term: string) => {
      if (!corrections.has(term)) {
        const holding = inShortlist.get(term);
        corrections.set(term, holding ? rarity(this.size, entriesWith(term)) / rarity(shortlist.size, holding) : 1);
      }
      return corrections.get(term)!;
    };
    const again = new MiniSearch<CatalogueEntry>({ fields: ['title', 'text'], storeFields: [], processTerm });
    again.addAll([...shortlist.values()].map(({ id, title, text }) => ({ id, title, text })));
    const boostDocument = (id: unknown, term: string) => weigh(String(id), shortlist.get(String(id))?.group) * correction(term);
    return ranked(again, expanded, { ...options, boostDocument }, limit);
  }

  /** For a word the catalogue does not hold: FTS5 query words for the words it begins and those spelt nearly as it. */
  private looseAlternatives(term: string): string[] {
    if (term.length < PREFIX_FROM || !askable(term)) return [];
    const near = term.length >= NEAR_FROM ? this.stored!.near(term, nearDistance(term)) : [];
    return [`${quoted(term)}*`, ...near.map(quoted)];
  }

  /** Each group whose name matches the query, with its weight (1 to 1.5, by how well it matches). */
  private groupWeights(query: string): Map<string, number> {
    const groupMatches = this.groups?.find(query, Number.MAX_SAFE_INTEGER) ?? [];
    const best = groupMatches[0]?.score ?? 0;
    return new Map(groupMatches.map((match) => [match.id, 1 + 0.5 * (match.score / best)]));
  }
}

function ranked(index: MiniSearch<CatalogueEntry>, query: string, options: SearchOptions, limit: number): Match[] {
  const results: SearchResult[] = index.search(query, options);
  return results.slice(0, limit).map((result) => ({ id: String(result.id), score: result.score }));
}

/** A small index built at once (the candidates of one call, a short list). */
export function indexOf(entries: CatalogueEntry[], boosts?: ReadonlyMap<string, number>): CatalogueIndex {
  const index = new CatalogueIndex(boosts);
  index.addNow(entries);
  return index;
}
