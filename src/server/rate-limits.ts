/**
 * Request-rate limits, shared by every server process (rate-limiter-flexible):
 *  - per API key: RATE_LIMIT_PER_MINUTE requests per minute, counted in Redis when REDIS_URL is set
 *    (one atomic round trip for the requests of a key that arrive together, no database work per
 *    call; the database store stands in while Redis is unreachable), otherwise in the ledger
 *    database: on SQLite one UPSERT statement for the requests of a key that arrive together
 *    (SQLite runs one writer at a time, so processes sharing the file count exactly), on MySQL one
 *    consume of rate-limiter-flexible's store over our pool for them; while much of a key's window
 *    is left, a count also leases a few counts to this process (see LEASE_SHARE), so most calls
 *    of a busy key cost no round trip at all; while a MySQL/MariaDB server is out of reach, each
 *    process counts in its own memory instead (rate-limiter-flexible's insurance limiter);
 *  - per account: RATE_LIMIT_ACCOUNT_PER_MINUTE requests per minute with all of its keys together
 *    (by default 10 times the per-key limit; 0 switches it off), counted the same way in the same
 *    stores after the key's own count, so that an account cannot multiply its rate by making keys;
 *  - per account: KEY_CREATIONS_PER_HOUR new keys an hour (in the database), so that creating and
 *    deleting keys is no way around the per-key limit either;
 *  - per client address: a few failed key attempts, so keys cannot be guessed at speed. The address
 *    is the connection's unless it comes from a TRUSTED_PROXIES proxy (see app.ts), so rotating
 *    X-Forwarded-For changes nothing; IPv6 addresses count by their /64. A key that verifies is
 *    never checked against this limit (auth.ts). Rows of addresses whose window has passed are
 *    deleted at most once a minute, when a failure is recorded: the table holds the addresses that
 *    failed within the last window, not every address ever seen.
 */
import ipaddr from 'ipaddr.js';
import type { Knex } from 'knex';
import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterMySQL,
  RateLimiterRedis,
  RateLimiterRes,
  RateLimiterSQLite,
  type IRateLimiterStoreOptions,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { ACCOUNT_RATE_FACTOR } from '../config.ts';
import { ApiError } from '../errors.ts';
import { GroupCommit } from '../database/group-commit.ts';
import { databaseUnreachable } from '../database/reachability.ts';
import { engineOf, runStatement } from '../database/statements.ts';
import { metrics } from '../metrics.ts';

const WINDOW_SECONDS = 60;
export const FAILED_KEY_ATTEMPTS = 10;
export const FAILED_KEY_WINDOW_SECONDS = 300;
const ADDRESS_TABLE = 'rate_limit_addresses';
const SWEEP_INTERVAL_MS = 60_000;
const REDIS_CONNECT_TIMEOUT_MS = 2000;

/** Whose request is counted: the key it was made with and that key's account. */
export interface RateLimitedCaller {
  keyId: string;
  accountId: string;
}

export interface RateLimitOptions {
  /** Shared store of the per-key and per-account counts (REDIS_URL); the database when absent. */
  redisUrl?: string;
  /** RATE_LIMIT_ACCOUNT_PER_MINUTE; by default ACCOUNT_RATE_FACTOR times the per-key limit, 0: no account-wide limit. */
  accountPerMinute?: number;
  /** KEY_CREATIONS_PER_HOUR. */
  keyCreationsPerHour?: number;
}

export const DEFAULT_KEY_CREATIONS_PER_HOUR = 20;

export interface RateLimits {
  /**
   * Counts one request of a key and of its account; throws 429 rate_limited when either is over its
   * limit (the key's is counted first: a request the key's limit refuses does not count for the account).
   * Returns the headers to send.
   */
  consumeKey(caller: RateLimitedCaller): Promise<Record<string, string>>;
  /** Counts one new key of an account; throws 429 rate_limited past KEY_CREATIONS_PER_HOUR. */
  consumeKeyCreation(accountId: string): Promise<void>;
  /** Throws 429 when this address has made too many failed key attempts recently. */
  checkAddress(address: string): void;
  /** Counts one failed key attempt of an address; throws 429 once the address is over its limit. */
  recordFailedKey(address: string): Promise<void>;
  /** Deletes the rows of addresses whose window has passed; returns how many. */
  sweepExpiredAddresses(): Promise<number>;
  /** Closes the connection to Redis, if there is one. */
  close(): void;
}

/**
 * What the failed-key limit counts for a client address: an IPv4 address itself (IPv4-mapped IPv6
 * included), an IPv6 address by its /64 — one network, which a client can fill with addresses at will.
 */
export function addressGroup(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':');
  return `${prefix}::/64`;
}

async function storeLimiter(db: Knex, options: Omit<IRateLimiterStoreOptions, 'storeClient'> & { tableName: string }): Promise<RateLimiterAbstract> {
  const client = (db.client as { config: { client: string } }).config.client;
  return new Promise((resolve, reject) => {
    const done = (error?: Error): void => (error ? reject(error) : resolve(limiter));
    let limiter: RateLimiterAbstract;
    if (client === 'mysql2') {
      const dbName = (db.client as { connectionSettings: { database: string } }).connectionSettings.database;
      // While the database server is out of reach, each process counts in its own memory (one limit per process meanwhile).
      const insuranceLimiter = new RateLimiterMemory({ points: options.points, duration: options.duration, keyPrefix: options.keyPrefix });
      const inDatabase = new RateLimiterMySQL({ ...options, storeClient: db, storeType: 'knex', dbName, clearExpiredByTimeout: false, insuranceLimiter }, done);
      // Known to be out of reach: counted in memory at once, not after a connect that may take seconds (reachability.ts).
      const consume = inDatabase.consume.bind(inDatabase);
      inDatabase.consume = (key, points, consumeOptions) =>
        databaseUnreachable(db) ? insuranceLimiter.consume(key, points, consumeOptions) : consume(key, points, consumeOptions);
      limiter = inDatabase;
    } else {
      limiter = new RateLimiterSQLite({ ...options, storeClient: db, storeType: 'knex' }, done);
    }
  });
}

/** Where a request stands against one limit: the policy's name and size, and what its window has left. */
interface Standing {
  policy: 'per-key' | 'per-account';
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/**
 * The rate-limit headers of the limits a request was counted against. The IETF
 * httpapi-ratelimit-headers draft's structured fields list each policy; the older single-valued
 * fields say the one closest to running out (the one that will refuse first).
 */
function headers(standings: readonly Standing[]): Record<string, string> {
  // On a tie the later one: the limit counted last is the one that refused, when one did.
  const tightest = standings.reduce((closest, standing) => (standing.remaining <= closest.remaining ? standing : closest));
  return {
    'RateLimit-Limit': String(tightest.limit),
    'RateLimit-Remaining': String(tightest.remaining),
    'RateLimit-Reset': String(tightest.resetSeconds),
    'RateLimit-Policy': standings.map((standing) => `"${standing.policy}";q=${standing.limit};w=${WINDOW_SECONDS}`).join(', '),
    RateLimit: standings.map((standing) => `"${standing.policy}";r=${standing.remaining};t=${standing.resetSeconds}`).join(', '),
  };
}

const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** What counts a key's requests: resolves with what is left, rejects with a RateLimiterRes when over the limit. */
type KeyCounter = Pick<RateLimiterAbstract, 'consume'>;

/** The table of the per-key and per-account counts (rows `key:<id>` and `account:<id>`) and of key creations. */
const KEY_TABLE = 'rate_limit_keys';
const KEY_PREFIX = 'key';
const ACCOUNT_PREFIX = 'account';
const KEY_CREATION_PREFIX = 'key-creation';
const HOUR_SECONDS = 3600;

/**
 * Counts a process leases for a key while much of the window is left: counted in the shared store
 * with the key's next count, at most 1/LEASE_SHARE of what the last count left, at most MAX_LEASED. The process then admits that many
 * more calls of the key without a round trip; every admitted call was counted in the shared store, so
 * processes together still never admit more than the limit. What a process holds when its calls of
 * the key stop is lost for the window (at most 1 % of what its previous count left); with a
 * limit under LEASE_SHARE nothing is leased and every call is counted in the store.
 */
const LEASE_SHARE = 100;
const MAX_LEASED = 100;
/** Keys whose leased counts a process remembers before it forgets those of windows that have passed (at most once a second). */
const REMEMBERED_KEYS = 10_000;

/** Per key, the counts this process leased and has not used yet. */
class LeasedCounts {
  private readonly byKey = new Map<string, { left: number; remaining: number; until: number }>();
  private lastForgotten = 0;

  /**
   * Uses one of the key's leased counts, if the process holds one in a window that has not ended:
   * the result a count would have given (what is left counts the leased ones still held).
   */
  useLeased(keyId: string, perMinute: number): RateLimiterRes | undefined {
    const leased = this.byKey.get(keyId);
    const now = Date.now();
    if (!leased || leased.left === 0 || leased.until <= now) return undefined;
    leased.left -= 1;
    const remaining = leased.remaining + leased.left;
    return new RateLimiterRes(remaining, leased.until - now, perMinute - remaining, false);
  }

  /** How many counts to lease with the key's next count: 1/LEASE_SHARE of what its last count left, at most MAX_LEASED. */
  leaseSizeFor(keyId: string): number {
    const known = this.byKey.get(keyId);
    return known && known.until > Date.now() ? Math.min(MAX_LEASED, Math.floor(known.remaining / LEASE_SHARE)) : 0;
  }

  /**
   * Keeps what a count leased: `remaining` is what the store's count left besides them, `until`
   * when the window ends (by this process's clock, from when the count was sent: never later than
   * the store's). Another count of the same window adds to the leased counts still held.
   */
  keepLeased(keyId: string, taken: number, remaining: number, until: number): void {
    const kept = this.byKey.get(keyId);
    if (kept && kept.until > Date.now()) {
      kept.left += taken;
      kept.remaining = Math.min(kept.remaining, remaining);
      return;
    }
    if (this.byKey.size >= REMEMBERED_KEYS && Date.now() - this.lastForgotten >= 1000) {
      this.lastForgotten = Date.now();
      for (const [key, leased] of this.byKey) if (leased.until <= this.lastForgotten) this.byKey.delete(key);
    }
    this.byKey.set(keyId, { left: taken, remaining, until });
  }
}

/**
 * Counts the requests of one key that arrive together with one write (group-commit.ts): `count`
 * adds their number (and the counts leased with them) to the key's window and says the window's total
 * after it; each request is then numbered in arrival order, and those numbered past the limit are
 * refused. Two processes counting the same key never admit more than the limit together: every
 * write adds to the one shared total, and a call is admitted only on a count of its own or on one
 * its process leased.
 */
function groupedKeyCounter(perMinute: number, count: (keyId: string, requests: number) => Promise<{ total: number; msBeforeNext: number }>): KeyCounter {
  const leases = new LeasedCounts();
  const counts = new GroupCommit<null, RateLimiterRes>(async (keyId, requests) => {
    const sentAt = Date.now();
    const leasing = leases.leaseSizeFor(keyId);
    const { total, msBeforeNext } = await count(keyId, requests.length + leasing);
    const before = total - requests.length - leasing;
    leases.keepLeased(keyId, Math.max(0, Math.min(leasing, perMinute - before - requests.length)), Math.max(0, perMinute - total), sentAt + msBeforeNext);
    return requests.map((_, index) => {
      const points = before + index + 1;
      return new RateLimiterRes(Math.max(0, perMinute - points), msBeforeNext, points, points === 1);
    });
  });
  return {
    async consume(keyId) {
      const leased = leases.useLeased(String(keyId), perMinute);
      if (leased) return leased;
      const counted = await counts.submit(String(keyId), null);
      if (counted.consumedPoints > perMinute) throw counted;
      return counted;
    },
  };
}

/**
 * The key's count in one statement on the table rate-limiter-flexible's SQLite store keeps (same
 * rows, same meaning): a new window starts once the old one has expired.
 */
function sqliteKeyCounter(db: Knex, prefix: string, perMinute: number): KeyCounter {
  const sql =
    `INSERT INTO ${KEY_TABLE} (key, points, expire) VALUES (?, ?, ?) ON CONFLICT(key) DO UPDATE SET ` +
    'points = CASE WHEN expire > ? THEN points + excluded.points ELSE excluded.points END, expire = CASE WHEN expire > ? THEN expire ELSE excluded.expire END ' +
    'RETURNING points, expire';
  return groupedKeyCounter(perMinute, async (keyId, requests) => {
    const now = Date.now();
    const [row] = (await runStatement(db, { sql, params: [`${prefix}:${keyId}`, requests, now + WINDOW_SECONDS * 1000, now, now] })) as Array<{
      points: number;
      expire: number;
    }>;
    return { total: Number(row!.points), msBeforeNext: Number(row!.expire) - now };
  });
}

/**
 * rate-limiter-flexible's count (in Redis with its database stand-in, or in the MySQL/MariaDB table)
 * of the requests of a key that arrive together, in one consume of their number: a burst of one
 * key is one write, not one transaction per request queueing on the key's row.
 */
function storeKeyCounter(limiter: RateLimiterAbstract, perMinute: number): KeyCounter {
  return groupedKeyCounter(perMinute, async (keyId, requests) => {
    // A consume past the limit still adds its points, and rejects with the total.
    const counted = await limiter.consume(keyId, requests).catch((over: unknown) => {
      if (over instanceof RateLimiterRes) return over;
      throw over;
    });
    return { total: counted.consumedPoints, msBeforeNext: counted.msBeforeNext };
  });
}

/** A connection to Redis for the counts, once it is up (or has failed: then the database stand-in counts until it comes). */
async function connectRedis(redisUrl: string): Promise<Redis> {
  // No offline queue: while Redis is away a count fails at once and the database store counts instead.
  const redis = new Redis(redisUrl, {
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
  });
  redis.on('error', () => undefined); // each failed count falls back to the database store; ioredis reconnects by itself
  // Counts sent before the connection is up would fail and be counted by the stand-in instead: wait for it (or its failure) first.
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      redis.off('ready', done).off('error', done);
      resolve();
    };
    const timer = setTimeout(done, REDIS_CONNECT_TIMEOUT_MS);
    redis.once('ready', done).once('error', done);
  });
  return redis;
}

/**
 * A per-minute count of one kind of id (`key:<id>`, `account:<id>`): in Redis when given, with the
 * database store as its stand-in while Redis fails; otherwise in the database.
 */
async function minuteCounter(db: Knex, prefix: string, perMinute: number, redis: Redis | undefined): Promise<KeyCounter> {
  // Also creates the table on a fresh database.
  const inDatabase = await storeLimiter(db, { tableName: KEY_TABLE, keyPrefix: prefix, points: perMinute, duration: WINDOW_SECONDS });
  if (!redis) return engineOf(db) === 'sqlite' ? sqliteKeyCounter(db, prefix, perMinute) : storeKeyCounter(inDatabase, perMinute);
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `research-tools:rate:${prefix}`,
    points: perMinute,
    duration: WINDOW_SECONDS,
    insuranceLimiter: inDatabase as never,
  });
  return storeKeyCounter(limiter, perMinute);
}

export async function createRateLimits(db: Knex, perMinute: number, options: RateLimitOptions = {}): Promise<RateLimits> {
  const accountPerMinute = options.accountPerMinute ?? ACCOUNT_RATE_FACTOR * perMinute;
  const redis = options.redisUrl ? await connectRedis(options.redisUrl) : undefined;
  const keys = await minuteCounter(db, KEY_PREFIX, perMinute, redis);
  const accounts = accountPerMinute > 0 ? await minuteCounter(db, ACCOUNT_PREFIX, accountPerMinute, redis) : undefined;
  const keyCreationsPerHour = options.keyCreationsPerHour ?? DEFAULT_KEY_CREATIONS_PER_HOUR;
  const keyCreations = await storeLimiter(db, { tableName: KEY_TABLE, keyPrefix: KEY_CREATION_PREFIX, points: keyCreationsPerHour, duration: HOUR_SECONDS });
  const addresses = (await storeLimiter(db, {
    tableName: ADDRESS_TABLE,
    keyPrefix: 'addr',
    points: FAILED_KEY_ATTEMPTS,
    duration: FAILED_KEY_WINDOW_SECONDS,
    inMemoryBlockOnConsumed: FAILED_KEY_ATTEMPTS + 1,
    inMemoryBlockDuration: FAILED_KEY_WINDOW_SECONDS,
  })) as RateLimiterAbstract & { getInMemoryBlockMsBeforeExpire(key: string): number; getKey(key: string): string };

  let lastSweep = 0;
  const sweepExpiredAddresses = (): Promise<number> => db(ADDRESS_TABLE).where('expire', '<', Date.now()).delete();
  const tooManyFailures = (ms: number): ApiError => {
    metrics.rateLimitRefused('failed_keys');
    return new ApiError('rate_limited', `too many failed API key attempts from this address; retry in ${seconds(ms)} s`, {
      'Retry-After': String(seconds(ms)),
    });
  };

  /** One request counted against one limit: where it stands, or 429 with the headers of the limits counted so far. */
  const count = async (counter: KeyCounter, id: string, policy: Standing['policy'], limit: number, before: Standing[]): Promise<Standing> => {
    try {
      const result = await counter.consume(id);
      return { policy, limit, remaining: result.remainingPoints, resetSeconds: seconds(result.msBeforeNext) };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const wait = seconds(rejection.msBeforeNext);
      metrics.rateLimitRefused(policy === 'per-key' ? 'per_key' : 'per_account');
      const whose = policy === 'per-key' ? 'with this key' : "with this account's keys together";
      throw new ApiError('rate_limited', `more than ${limit} requests per minute ${whose}; retry in ${wait} s`, {
        ...headers([...before, { policy, limit, remaining: 0, resetSeconds: wait }]),
        'Retry-After': String(wait),
      });
    }
  };

  return {
    async consumeKey({ keyId, accountId }) {
      const key = await count(keys, keyId, 'per-key', perMinute, []);
      if (!accounts) return headers([key]);
      return headers([key, await count(accounts, accountId, 'per-account', accountPerMinute, [key])]);
    },
    async consumeKeyCreation(accountId) {
      try {
        await keyCreations.consume(accountId);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const wait = seconds(rejection.msBeforeNext);
        metrics.rateLimitRefused('key_creations');
        throw new ApiError('rate_limited', `more than ${keyCreationsPerHour} new keys per hour in this account; retry in ${wait} s`, {
          'Retry-After': String(wait),
        });
      }
    },
    checkAddress(address) {
      const blockedMs = addresses.getInMemoryBlockMsBeforeExpire(addresses.getKey(addressGroup(address)));
      if (blockedMs > 0) throw tooManyFailures(blockedMs);
    },
    async recordFailedKey(address) {
      if (Date.now() - lastSweep >= SWEEP_INTERVAL_MS) {
        lastSweep = Date.now();
        void sweepExpiredAddresses().catch(() => undefined); // a failed sweep is retried a minute later
      }
      try {
        await addresses.consume(addressGroup(address));
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        throw tooManyFailures(rejection.msBeforeNext);
      }
    },
    sweepExpiredAddresses,
    close: () => redis?.disconnect(),
  };
}
