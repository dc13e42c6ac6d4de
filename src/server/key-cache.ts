/**
 * Verified API keys, kept in each process for a moment so that a burst of calls does not read the
 * key (and its account's pack switches) from the database on every call.
 *
 * The bound: an entry is used for at most KEY_CACHE_MS (500 ms) counted from when its database read
 * began, so a key deleted or a pack switched (admin CLI, another process, the owner's settings) takes
 * effect on every process within that time; on the process that made the change, at once (`forget`).
 * Unknown or revoked keys are never kept: each bad key goes to the database and the failed-key limit.
 *
 * While the database cannot be read (out of reach, or the read fails as transient), a key this
 * process verified within the last STALE_KEY_MS (10 minutes) is accepted as it was then, so free
 * calls go on through an outage; any other key is answered 503 temporarily_unavailable, never 401
 * (it may well be valid). A key deleted during the outage is thus accepted until the database is back.
 */
import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { ApiError } from '../errors.ts';
import { authenticateKey, hashKey, type AuthenticatedKey } from '../ledger/index.ts';
import { databaseUnreachable, isTransient } from '../database/index.ts';

export const KEY_CACHE_MS = 500;
/** How old a verification may be to stand in while the database cannot be read. */
export const STALE_KEY_MS = 10 * 60_000;
const MAX_KEYS = 10_000;

interface Entry {
  key: AuthenticatedKey;
  /** When the entry must no longer be used (the clock of `now`). */
  usableUntil: number;
  /** When its database read began: it stands in for STALE_KEY_MS from then while the database cannot be read. */
  verifiedAt: number;
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
    const stale = cached && this.now() - cached.verifiedAt < STALE_KEY_MS ? cached.key : undefined;
    // Known out of reach: no read (its connect could take seconds), the process's own knowledge stands in.
    if (databaseUnreachable(this.db)) return stale ?? cannotVerify();
    const readStarted = this.now();
    let found: AuthenticatedKey | null;
    try {
      found = await authenticateKey(this.db, rawKey);
    } catch (error) {
      if (!isTransient(error)) throw error;
      return stale ?? cannotVerify();
    }
    if (found) this.entries.set(hash, { key: found, usableUntil: readStarted + (this.options.cacheMs ?? KEY_CACHE_MS), verifiedAt: readStarted });
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

function cannotVerify(): never {
  throw new ApiError('temporarily_unavailable', 'the API key cannot be verified while the database is out of reach; try again shortly', { 'Retry-After': '1' });
}
