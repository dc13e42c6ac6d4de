/**
 * The catalogues find_series searches (BLS series lists, the Census dataset catalogue and its
 * variables, OECD dataflows and structures), held per process as search indexes: read on first
 * use, kept for a day (their answers also sit in the shared upstream cache for the source's TTL),
 * then answered at once from the old index while a fresh one is read in the background. One read
 * at a time per catalogue: calls that need it while it is being read wait for that same read; no
 * other call waits. A read that fails leaves the old index in place, or fails the calls that had
 * no index yet (their source goes into failedSources).
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { CatalogueIndex } from './catalogue-index.ts';

export const CATALOGUE_LIFETIME_MS = 24 * 60 * 60 * 1000;

interface Slot<T> {
  value?: T;
  loadedAt?: number;
  reading?: Promise<T>;
}

export class CatalogueStore {
  private readonly slots = new Map<string, Slot<unknown>>();

  constructor(
    private readonly lifetimeMs = CATALOGUE_LIFETIME_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The catalogue under `key`: the held one (refreshed in the background once older than the
   * lifetime), or the one `read` gives. A call that joins a read another call started, which then
   * fails with what concerned only that call (its credits refused), reads for itself.
   */
  async get<T>(key: string, read: () => Promise<T>): Promise<T> {
    let slot = this.slots.get(key) as Slot<T> | undefined;
    if (!slot) this.slots.set(key, (slot = {}));
    if (slot.value !== undefined) {
      if (this.now() - slot.loadedAt! >= this.lifetimeMs && !slot.reading) void this.start(slot, read).catch(() => undefined);
      return slot.value;
    }
    if (!slot.reading) return this.start(slot, read);
    try {
      return await slot.reading;
    } catch (error) {
      if (error instanceof UpstreamError) throw error; // the source failed: it failed for every call
      return this.get(key, read);
    }
  }

  private readonly versioned = new Map<string, { version: string; value: Promise<unknown> }>();

  /** What `read` makes of one answer (`version`: its retrievedAt), kept until the answer changes. */
  forAnswer<T>(key: string, version: string, read: () => Promise<T>): Promise<T> {
    const held = this.versioned.get(key);
    if (held?.version === version) return held.value as Promise<T>;
    const value = read();
    this.versioned.set(key, { version, value });
    value.catch(() => this.versioned.delete(key));
    return value;
  }

  /** Whether a catalogue is held under `key` (for tests and the benchmark). */
  holds(key: string): boolean {
    return this.slots.get(key)?.value !== undefined;
  }

  private start<T>(slot: Slot<T>, read: () => Promise<T>): Promise<T> {
    const reading = read().then(
      (value) => {
        slot.value = value;
        slot.loadedAt = this.now();
        slot.reading = undefined;
        return value;
      },
      (error: unknown) => {
        slot.reading = undefined;
        throw error;
      },
    );
    slot.reading = reading;
    return reading;
  }
}

/** One store per upstream client (and the views of its calls, which share its state). */
const stores = new WeakMap<object, CatalogueStore>();

export function cataloguesOf(upstream: UpstreamClient): CatalogueStore {
  let store = stores.get(upstream.shared);
  if (!store) stores.set(upstream.shared, (store = new CatalogueStore()));
  return store;
}

/**
 * The catalogue under `key`, read once by `read` and shared by the calls of this process: it reads
 * with the asking call's admission (nothing goes upstream for a call refused its credits) but not
 * its cancellation, as other calls may be waiting for the same read and a refresh outlives the call.
 */
export function catalogue<T>(upstream: UpstreamClient, key: string, read: (upstream: UpstreamClient) => Promise<T>): Promise<T> {
  const shared = upstream.withoutCancellation();
  return cataloguesOf(upstream).get(key, () => read(shared));
}

/**
 * The items of a catalogue fetched whole in one answer (World Bank indicators, IMF indicators,
 * Eurostat's table of contents) that match the topic, best first: the one search, its index kept
 * while the answer (`retrievedAt`) is the same.
 */
export async function bestOfWhole<T>(
  upstream: UpstreamClient,
  search: { topic: string; limit: number },
  whole: { key: string; answer: { retrievedAt: string }; items: readonly T[]; entryOf: (item: T) => { id: string; title: string; text?: string } },
): Promise<T[]> {
  const { key, answer, items, entryOf } = whole;
  const index = await cataloguesOf(upstream).forAnswer(key, answer.retrievedAt, async () => {
    const built = new CatalogueIndex();
    await built.addAll(items.map(entryOf));
    return built;
  });
  const byId = new Map(items.map((item) => [entryOf(item).id, item]));
  return index.find(search.topic, search.limit).flatMap((match) => (byId.has(match.id) ? [byId.get(match.id)!] : []));
}
