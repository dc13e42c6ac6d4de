/**
 * The upstream response cache: successful answers keyed by request, each kept for its source's TTL.
 * In process memory by default, bounded in bytes (least recently used answers go first); in Redis
 * when REDIS_URL is set, so several server processes share it (Redis's own `maxmemory` with an LRU
 * policy bounds it there; every entry has a TTL). Either way an answer larger than
 * `maxEntryBytes` is not cached. A cache that fails is treated as a miss: it never fails a call.
 */
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

export interface ResponseCache {
  get(key: string): Promise<CachedAnswer | undefined>;
  set(key: string, value: CachedAnswer, ttlS: number): Promise<void>;
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

  async get(key: string): Promise<CachedAnswer | undefined> {
    return this.entries.get(key);
  }

  async set(key: string, value: CachedAnswer, ttlS: number): Promise<void> {
    if (ttlS <= 0) return;
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
  }

  async get(key: string): Promise<CachedAnswer | undefined> {
    try {
      const text = await this.redis.get(this.prefix + key);
      return text === null ? undefined : (JSON.parse(text) as CachedAnswer);
    } catch (error) {
      this.logger?.warn({ err: (error as Error).message }, 'upstream cache: read failed, treated as a miss');
      return undefined;
    }
  }

  async set(key: string, value: CachedAnswer, ttlS: number): Promise<void> {
    if (ttlS <= 0 || answerBytes(value) > this.maxEntryBytes) return;
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

export function createResponseCache(redisUrl: string | undefined, logger?: Logger): ResponseCache {
  return redisUrl ? new RedisCache(redisUrl, logger) : new MemoryCache();
}
