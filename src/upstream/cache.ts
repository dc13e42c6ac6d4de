/**
 * The upstream response cache: successful answers keyed by request, each kept for its source's TTL.
 * In process memory by default; in Redis when REDIS_URL is set, so several server processes share
 * it. A cache that fails is treated as a miss: it never fails a call.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

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

export class MemoryCache implements ResponseCache {
  private readonly entries = new Map<string, { value: CachedAnswer; expiresAt: number }>();

  constructor(private readonly maxEntries = 2000, private readonly now: () => number = Date.now) {}

  async get(key: string): Promise<CachedAnswer | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Re-insert so the Map's order is least recently used first.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  async set(key: string, value: CachedAnswer, ttlS: number): Promise<void> {
    if (ttlS <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlS * 1000 });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }

  async close(): Promise<void> {
    this.entries.clear();
  }
}

export class RedisCache implements ResponseCache {
  private readonly redis: Redis;

  constructor(url: string, private readonly logger?: Logger, private readonly prefix = 'research-tools:upstream:') {
    this.redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 2000 });
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
    if (ttlS <= 0) return;
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
