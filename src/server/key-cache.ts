/**
 * Verified API keys, kept in each process for a moment so that a burst of calls does not read the
 * key (and its account's pack switches) from the database on every call.
 *
 * The bound: an entry is used for at most KEY_CACHE_MS (500 ms) counted from when its database read
 * began, so a key deleted or a pack switched (admin CLI, another process, the owner's settings) takes
 * effect on every process within that time; on the process that made the change, at once (`forget`).
 * Unknown or revoked keys are never kept: each bad key goes to the database and the failed-key limit.
 */
import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { authenticateKey, hashKey, type AuthenticatedKey } from '../ledger/index.ts';

export const KEY_CACHE_MS = 500;
const MAX_KEYS = 10_000;

interface Entry {
  key: AuthenticatedKey;
  /** When the entry must no longer be used (the clock of `now`). */
  usableUntil: number;
}

export class KeyVerifier {
  private readonly entries = new LRUCache<string, Entry>({ max: MAX_KEYS });

  constructor(
    private readonly db: Knex,
    private readonly options: { cacheMs?: number; now?: () => number } = {},
  ) {}

  private now(): number {
    return (this.options.now ?? performance.now.bind(performance))();
  }

  /** The live key matching `rawKey` with its account's switched-off packs, or null. */
  async verify(rawKey: string): Promise<AuthenticatedKey | null> {
    const hash = hashKey(rawKey);
    const cached = this.entries.get(hash);
    if (cached && this.now() < cached.usableUntil) return cached.key;
    const readStarted = this.now();
    const found = await authenticateKey(this.db, rawKey);
    if (found) this.entries.set(hash, { key: found, usableUntil: readStarted + (this.options.cacheMs ?? KEY_CACHE_MS) });
    else this.entries.delete(hash);
    return found;
  }

  /** Drops the account's keys from this process's cache: its keys or packs changed here. */
  forgetAccount(accountId: string): void {
    for (const [hash, entry] of this.entries.entries()) {
      if (entry.key.accountId === accountId) this.entries.delete(hash);
    }
  }
}
