/**
 * The upstream response cache: successful answers keyed by request, each kept for its source's TTL.
 * In process memory by default, bounded in bytes (least recently used answers go first); in Redis
 * when REDIS_URL is set, so several server processes share it (Redis's own `maxmemory` with an LRU
 * policy bounds it there; every entry has a TTL), with each process keeping the answers it reads or
 * writes in its own memory too, for the time they have left in Redis, so that a repeated hit costs
 * no round trip. Either way an answer larger than `maxEntryBytes` is not cached (a large answer:
 * its body cap). A cache that fails is treated as a miss: it never fails a call.
 *
 * A catalogue read whole (asked with a raised body cap: a BLS series list, Census's dataset list,
 * OECD's dataflows) is a large answer: it is kept in Redis only, up to its body cap, and never in a
 * process's memory, where the process keeps the index it made of it instead (../statistics/catalogues.ts);
 * without Redis it is not cached.
 */
import { randomUUID } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';

const MiB = 1024 * 1024;

export interface CachedAnswer {
  status: number;
  contentType: string;
  body: string;
  /** When the upstream answered (ISO 8601 UTC with ms); cached answers keep it. */
  retrievedAt: string;
}

/** What is kept of an answer beside its body. */
export type AnswerFacts = Omit<CachedAnswer, 'body'>;

/**
 * Large answers read as they stream (UpstreamClient.readText), kept in pieces: written as they
 * arrive, read back piece by piece, never held whole. Only a shared cache has them.
 */
export interface PieceStore {
  /** The answer's facts once its body was handed to `take` piece by piece; undefined (nothing handed over) when it is not held whole. */
  read(key: string, take: (piece: string) => Promise<void>): Promise<AnswerFacts | undefined>;
  /** Where an answer goes as it arrives: `append` its bytes, then `commit` its facts once it ended well, else `abort`. */
  writer(key: string, ttlS: number): PieceWriter;
}

export interface PieceWriter {
  append(chunk: Buffer): void;
  commit(facts: AnswerFacts): Promise<void>;
  abort(): Promise<void>;
}

/** How an answer is kept: `large` (a catalogue read whole) goes to the shared cache only, up to `maxBytes` of body. */
export type Keeping = { large: false } | { large: true; maxBytes: number };

export const ORDINARY: Keeping = { large: false };

export interface ResponseCache {
  get(key: string, keeping?: Keeping): Promise<CachedAnswer | undefined>;
  set(key: string, value: CachedAnswer, ttlS: number, keeping?: Keeping): Promise<void>;
  /** Where large answers read as they stream are kept: Redis only. */
  readonly pieces?: PieceStore;
  close(): Promise<void>;
}

/** Bounds of the memory cache: total bytes held (bodies as UTF-16 strings), entries, and the largest answer kept. */
export interface MemoryCacheBounds {
  maxBytes: number;
  maxEntries: number;
  /** An answer larger than this is not cached (it is still answered). */
  maxEntryBytes: number;
}

export const DEFAULT_CACHE_BOUNDS: MemoryCacheBounds = { maxBytes: 64 * MiB, maxEntries: 2000, maxEntryBytes: 8 * MiB };

/** Bytes an answer takes in memory: JavaScript strings hold two bytes a character. */
export function answerBytes(value: CachedAnswer): number {
  return 2 * (value.body.length + value.contentType.length + value.retrievedAt.length) + 64;
}

export class MemoryCache implements ResponseCache {
  private readonly entries: LRUCache<string, CachedAnswer>;

  constructor(bounds: Partial<MemoryCacheBounds> = {}, now: () => number = Date.now) {
    const { maxBytes, maxEntries, maxEntryBytes } = { ...DEFAULT_CACHE_BOUNDS, ...bounds };
    this.entries = new LRUCache<string, CachedAnswer>({
      max: maxEntries,
      maxSize: maxBytes,
      maxEntrySize: Math.min(maxEntryBytes, maxBytes),
      sizeCalculation: answerBytes,
      perf: { now },
      ttlResolution: 0,
    });
  }

  async get(key: string, keeping: Keeping = ORDINARY): Promise<CachedAnswer | undefined> {
    return keeping.large ? undefined : this.entries.get(key);
  }

  async set(key: string, value: CachedAnswer, ttlS: number, keeping: Keeping = ORDINARY): Promise<void> {
    if (ttlS <= 0 || keeping.large) return;
    this.entries.set(key, value, { ttl: ttlS * 1000 });
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes held, as counted by answerBytes. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}

export class RedisCache implements ResponseCache {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly logger?: Logger,
    private readonly prefix = 'research-tools:upstream:',
    private readonly maxEntryBytes = DEFAULT_CACHE_BOUNDS.maxEntryBytes,
  ) {
    this.redis = new Redis(url, { lazyConnect: true, enableAutoPipelining: true, maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 2000 });
    this.redis.on('error', (error: Error) => this.logger?.warn({ err: error.message }, 'upstream cache: Redis error'));
    this.pieces = new RedisPieces(this.redis, prefix, logger);
  }

  readonly pieces: PieceStore;

  async get(key: string): Promise<CachedAnswer | undefined> {
    return (await this.getWithTtl(key))?.value;
  }

  /** Whether an answer may be kept here: within the entry bound, or a large answer within its own body cap. */
  private fits(value: CachedAnswer, keeping: Keeping): boolean {
    return keeping.large ? value.body.length <= keeping.maxBytes : answerBytes(value) <= this.maxEntryBytes;
  }

  /** The answer and the seconds it has left (a miss when it expires between the two reads, sent together). */
  async getWithTtl(key: string): Promise<{ value: CachedAnswer; ttlS: number } | undefined> {
    try {
      const [text, ttlMs] = await Promise.all([this.redis.get(this.prefix + key), this.redis.pttl(this.prefix + key)]);
      return text === null || ttlMs <= 0 ? undefined : { value: JSON.parse(text) as CachedAnswer, ttlS: ttlMs / 1000 };
    } catch (error) {
      this.logger?.warn({ err: (error as Error).message }, 'upstream cache: read failed, treated as a miss');
      return undefined;
    }
  }

  async set(key: string, value: CachedAnswer, ttlS: number, keeping: Keeping = ORDINARY): Promise<void> {
    if (ttlS <= 0 || !this.fits(value, keeping)) return;
    try {
      await this.redis.set(this.prefix + key, JSON.stringify(value), 'EX', Math.ceil(ttlS));
    } catch (error) {
      this.logger?.warn({ err: (error as Error).message }, 'upstream cache: write failed');
    }
  }

  async close(): Promise<void> {
    if (this.redis.status === 'end') return;
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }
}

/** Redis, with the answers this process reads or writes also kept in its memory for the time they have left in Redis. */
export class TieredCache implements ResponseCache {
  constructor(
    private readonly memory: MemoryCache,
    private readonly shared: RedisCache,
  ) {}

  get pieces(): PieceStore {
    return this.shared.pieces;
  }

  async get(key: string, keeping: Keeping = ORDINARY): Promise<CachedAnswer | undefined> {
    const near = await this.memory.get(key, keeping);
    if (near) return near;
    const far = await this.shared.getWithTtl(key);
    if (far) await this.memory.set(key, far.value, far.ttlS, keeping);
    return far?.value;
  }

  async set(key: string, value: CachedAnswer, ttlS: number, keeping: Keeping = ORDINARY): Promise<void> {
    await Promise.all([this.memory.set(key, value, ttlS, keeping), this.shared.set(key, value, ttlS, keeping)]);
  }

  async close(): Promise<void> {
    await Promise.all([this.memory.close(), this.shared.close()]);
  }
}

/** Bytes of a large answer read back from Redis at a time. */
const PIECE_BYTES = 256 * 1024;
/** A large answer's body outlives its facts by this much, so that one read under way when the facts expire still finds it whole. */
const BODY_GRACE_S = 600;

/**
 * Large answers in Redis: the body under a key of its own for each write (appended to as it
 * arrives, so writers in several processes never mix), and the facts under the answer's key,
 * naming that body and its length, set only once the body is whole. A reader that finds the body
 * shorter than the facts say has a miss; one that loses Redis midway fails (it handed part over).
 */
export class RedisPieces implements PieceStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly logger?: Logger,
    private readonly pieceBytes = PIECE_BYTES,
  ) {}

  private factsKey = (key: string) => `${this.prefix}${key}:pieces`;

  async read(key: string, take: (piece: string) => Promise<void>): Promise<AnswerFacts | undefined> {
    let held: AnswerFacts & { bodyKey: string; bytes: number };
    try {
      const text = await this.redis.get(this.factsKey(key));
      if (text === null) return undefined;
      held = JSON.parse(text) as typeof held;
      if ((await this.redis.strlen(held.bodyKey)) !== held.bytes) return undefined;
    } catch (error) {
      this.logger?.warn({ err: (error as Error).message }, 'upstream cache: read failed, treated as a miss');
      return undefined;
    }
    const decoder = new StringDecoder('utf8');
    for (let start = 0; start < held.bytes; start += this.pieceBytes) {
      const end = Math.min(start + this.pieceBytes, held.bytes);
      const chunk = await this.redis.getrangeBuffer(held.bodyKey, start, end - 1);
      if (chunk.length !== end - start) throw new Error('upstream cache: a large answer was cut short while it was read');
      await take(decoder.write(chunk));
    }
    const last = decoder.end();
    if (last) await take(last);
    const { bodyKey, bytes, ...facts } = held;
    return facts;
  }

  writer(key: string, ttlS: number): PieceWriter {
    const bodyKey = `${this.prefix}${key}:body:${randomUUID()}`;
    let bytes = 0;
    let broken = false;
    const fail = (error: Error) => {
      if (!broken) this.logger?.warn({ err: error.message }, 'upstream cache: a large answer could not be written');
      broken = true;
    };
    return {
      append: (chunk) => {
        if (broken) return;
        // The body expires on its own even when its write never ends (the process died midway).
        const sent =
          bytes === 0
            ? this.redis
                .multi()
                .append(bodyKey, chunk)
                .expire(bodyKey, ttlS + BODY_GRACE_S)
                .exec()
            : this.redis.append(bodyKey, chunk);
        bytes += chunk.length;
        sent.catch(fail);
      },
      commit: async (facts) => {
        if (broken) return;
        // Sent after every append on the same connection: Redis runs them in order, so the facts never name a body still growing.
        await this.redis.set(this.factsKey(key), JSON.stringify({ ...facts, bodyKey, bytes }), 'EX', ttlS).catch(fail);
      },
      abort: async () => {
        broken = true;
        await this.redis.del(bodyKey).catch(() => undefined);
      },
    };
  }
}

export function createResponseCache(redisUrl: string | undefined, logger?: Logger): ResponseCache {
  return redisUrl ? new TieredCache(new MemoryCache(), new RedisCache(redisUrl, logger)) : new MemoryCache();
}
