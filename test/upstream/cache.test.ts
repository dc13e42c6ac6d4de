import { expect } from 'chai';
import { Redis } from 'ioredis';
import { MemoryCache, RedisCache, TieredCache, createResponseCache, type CachedAnswer } from '../../src/upstream/cache.ts';
import { UpstreamClient } from '../../src/upstream/client.ts';
import type { UpstreamError } from '../../src/upstream/errors.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { HostGroupLimiter } from '../../src/upstream/limits.ts';
import { hostGroupLimit, hostGroupOf, resolveSource } from '../../src/upstream/sources.ts';
import { FastForwardClock } from '../support/clock.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';

const answer: CachedAnswer = { status: 200, contentType: 'application/json', body: '{"a":1}', retrievedAt: '2026-01-02T03:04:05.678Z' };
/** The Redis of the tests (TEST_REDIS_URL, as the other suites that need one), by default a local one. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('the memory cache', () => {
  it('keeps an answer for its TTL and forgets it afterwards', async () => {
    let now = 1_000_000;
    const cache = new MemoryCache({ maxEntries: 10 }, () => now);
    await cache.set('k', answer, 60);
    expect(await cache.get('k')).to.deep.equal(answer);
    now += 60_001;
    expect(await cache.get('k')).to.equal(undefined);
  });
  it('drops the least recently used entry beyond its size', async () => {
    const cache = new MemoryCache({ maxEntries: 2 });
    await cache.set('a', answer, 60);
    await cache.set('b', answer, 60);
    await cache.get('a');
    await cache.set('c', answer, 60);
    expect([await cache.get('a'), await cache.get('b'), await cache.get('c')].map(Boolean)).to.deep.equal([true, false, true]);
  });
  it('stays within its byte bound after several large answers, dropping the least recently used', async () => {
    const large = (fill: string): CachedAnswer => ({ ...answer, body: fill.repeat(400_000) }); // 800,000 bytes as a string, plus its fields
    const cache = new MemoryCache({ maxBytes: 2_000_000, maxEntryBytes: 1_000_000 });
    for (const fill of ['a', 'b', 'c', 'd']) await cache.set(fill, large(fill), 60);
    expect(cache.bytes).to.be.at.most(2_000_000);
    expect([await cache.get('a'), await cache.get('b'), await cache.get('c'), await cache.get('d')].map(Boolean)).to.deep.equal([false, false, true, true]);
  });
  it('does not keep an answer larger than its entry bound', async () => {
    const cache = new MemoryCache({ maxBytes: 2_000_000, maxEntryBytes: 1_000_000 });
    await cache.set('big', { ...answer, body: 'x'.repeat(600_000) }, 60);
    expect([cache.size, cache.bytes]).to.deep.equal([0, 0]);
  });
  it('does not store an answer whose TTL is zero', async () => {
    const cache = new MemoryCache();
    await cache.set('k', answer, 0);
    expect(cache.size).to.equal(0);
  });
  it('never keeps a large answer (a catalogue read whole): the process keeps the index it makes of it instead', async () => {
    const cache = new MemoryCache();
    await cache.set('catalogue', answer, 60, { large: true, maxBytes: 1_000_000 });
    expect([cache.size, await cache.get('catalogue', { large: true, maxBytes: 1_000_000 })]).to.deep.equal([0, undefined]);
  });
});

describe('the Redis cache (shared by several processes)', function () {
  let reachable = false;
  before(async function () {
    const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      reachable = (await probe.ping()) === 'PONG';
    } catch {
      reachable = false;
    } finally {
      probe.disconnect();
    }
    if (!reachable) {
      if (process.env.CI) throw new Error(`no Redis answers at ${REDIS_URL}, and CI expects one (TEST_REDIS_URL)`);
      console.log(`Redis cache tests skipped: no Redis answers at ${REDIS_URL} (set TEST_REDIS_URL to run them).`);
      this.skip();
    }
  });

  it('does not store an answer larger than its entry bound', async () => {
    const prefix = `test:${Date.now()}:${Math.random()}:`;
    const cache = new RedisCache(REDIS_URL, undefined, prefix, 1000);
    try {
      await cache.set('small', answer, 60);
      await cache.set('big', { ...answer, body: 'x'.repeat(1000) }, 60);
      expect([Boolean(await cache.get('small')), await cache.get('big')]).to.deep.equal([true, undefined]);
    } finally {
      await cache.close();
    }
  });
  it('a process keeps an answer it reads from Redis in its memory for the time the answer has left there', async () => {
    const prefix = `test:${Date.now()}:${Math.random()}:`;
    const writer = new RedisCache(REDIS_URL, undefined, prefix);
    let now = 1_000_000;
    const reader = new TieredCache(new MemoryCache({}, () => now), new RedisCache(REDIS_URL, undefined, prefix));
    const redis = new Redis(REDIS_URL);
    try {
      await writer.set('k', answer, 60);
      const read = [await reader.get('k')];
      await redis.del(`${prefix}k`); // gone from Redis: what follows comes from the reader's memory
      read.push(await reader.get('k'));
      now += 59_000;
      read.push(await reader.get('k'));
      now += 1_001;
      read.push(await reader.get('k'));
      expect(read).to.deep.equal([answer, answer, answer, undefined]);
    } finally {
      await Promise.all([writer.close(), reader.close(), redis.quit()]);
    }
  });
  it("with REDIS_URL, an answer a process writes goes to Redis for the other processes and stays in the process's memory", async () => {
    const key = `test:${Date.now()}:${Math.random()}`;
    const writer = createResponseCache(REDIS_URL);
    const other = new RedisCache(REDIS_URL);
    const redis = new Redis(REDIS_URL);
    try {
      await writer.set(key, answer, 60);
      const fromRedis = await other.get(key);
      await redis.del(`research-tools:upstream:${key}`);
      expect([fromRedis, await writer.get(key), await other.get(key)]).to.deep.equal([answer, answer, undefined]);
    } finally {
      await Promise.all([writer.close(), other.close(), redis.quit()]);
    }
  });
  it("keeps a large answer (a catalogue read whole) in Redis up to its body cap, beyond the entry bound, and in no process's memory", async () => {
    const prefix = `test:${Date.now()}:${Math.random()}:`;
    const large = { large: true, maxBytes: 3000 } as const;
    const memories = [new MemoryCache(), new MemoryCache()];
    const [writer, reader] = memories.map((memory) => new TieredCache(memory, new RedisCache(REDIS_URL, undefined, prefix, 1000)));
    const catalogue = { ...answer, body: 'x'.repeat(2000) };
    try {
      await writer!.set('list', catalogue, 60, large);
      await writer!.set('too-large', { ...answer, body: 'x'.repeat(3600) }, 60, large);
      const read = [await reader!.get('list', large), await reader!.get('too-large', large)];
      expect(read).to.deep.equal([catalogue, undefined]);
      expect(memories.map((memory) => memory.size)).to.deep.equal([0, 0]);
    } finally {
      await Promise.all([writer!.close(), reader!.close()]);
    }
  });
  describe('large answers read as they stream, kept in pieces', () => {
    let fake: FakeUpstream;
    const prefix = () => `test:${Date.now()}:${Math.random()}:`;
    // 600,000 bytes, 3 a character: several pieces of 256 KB, characters cut between them.
    const body = 'série ✓ '.repeat(60_000);
    before(async () => {
      fake = await startFakeUpstream();
    });
    after(async () => fake.close());
    beforeEach(() => fake.reset());
    const clientOn = (cache: RedisCache) => new UpstreamClient({ sources: { USGS_EARTHQUAKES: { url: fake.url, timeoutMs: 5000 } }, cache });
    async function streamed(client: UpstreamClient) {
      const pieces: string[] = [];
      const read = await client.readText('usgs-earthquakes', { path: '/list', maxBodyBytes: 16 * 1024 ** 2 }, (piece) => void pieces.push(piece));
      return { text: pieces.join(''), pieces: pieces.length, fromCache: read.fromCache, retrievedAt: read.retrievedAt };
    }

    it("one process's read is kept in Redis as it streams, and another's is read back from there in pieces, without reaching the upstream", async () => {
      const shared = prefix();
      const caches = [new RedisCache(REDIS_URL, undefined, shared), new RedisCache(REDIS_URL, undefined, shared)];
      try {
        fake.on('/list', { body, contentType: 'text/plain' });
        const first = await streamed(clientOn(caches[0]!));
        const second = await streamed(clientOn(caches[1]!));
        expect([first.text === body, first.fromCache, second.text === body, second.fromCache, second.retrievedAt]).to.deep.equal([
          true,
          false,
          true,
          true,
          first.retrievedAt,
        ]);
        expect([second.pieces > 2, fake.hits.length]).to.deep.equal([true, 1]);
      } finally {
        await Promise.all(caches.map((cache) => cache.close()));
      }
    });
    it('a body found shorter in Redis than its facts say is a miss: the upstream is asked again', async () => {
      const shared = prefix();
      const cache = new RedisCache(REDIS_URL, undefined, shared);
      const redis = new Redis(REDIS_URL);
      try {
        fake.on('/list', { body, contentType: 'text/plain' });
        await streamed(clientOn(cache));
        const [bodyKey] = await redis.keys(`${shared}*:body:*`);
        await redis.set(bodyKey!, 'cut short', 'KEEPTTL');
        const again = await streamed(clientOn(cache));
        expect([again.text === body, again.fromCache, fake.hits.length]).to.deep.equal([true, false, 2]);
      } finally {
        await Promise.all([cache.close(), redis.quit()]);
      }
    });
    it('a read that broke off leaves nothing in Redis', async () => {
      const shared = prefix();
      const cache = new RedisCache(REDIS_URL, undefined, shared);
      const redis = new Redis(REDIS_URL);
      try {
        fake.on('/list', { fault: 'truncated', body, contentType: 'text/plain' });
        const error = await streamed(clientOn(cache)).catch((failure: unknown) => failure);
        expect((error as UpstreamError).kind).to.equal('network');
        expect(await redis.keys(`${shared}*`)).to.deep.equal([]);
      } finally {
        await Promise.all([cache.close(), redis.quit()]);
      }
    });
  });
  it('an answer cached by one client is served to another without reaching the upstream', async () => {
    const fake = await startFakeUpstream();
    const prefix = `test:${Date.now()}:${Math.random()}:`;
    const caches = [new RedisCache(REDIS_URL, undefined, prefix), new RedisCache(REDIS_URL, undefined, prefix)];
    try {
      fake.on('/query', json({ shared: true }));
      const clients = caches.map((cache) => new UpstreamClient({ sources: { USGS_EARTHQUAKES: { url: fake.url } }, cache }));
      const first = await clients[0]!.getJson('usgs-earthquakes', { path: '/query' });
      const second = await clients[1]!.getJson('usgs-earthquakes', { path: '/query' });
      expect(fake.hits).to.have.length(1);
      expect([second.fromCache, second.retrievedAt, second.body]).to.deep.equal([true, first.retrievedAt, { shared: true }]);
    } finally {
      await Promise.all(caches.map((cache) => cache.close()));
      await fake.close();
    }
  });
});

describe('JSON with 64-bit integers', () => {
  it('turns only unsafe integer literals outside strings into decimal strings', () => {
    const text = '{"id": 6636090334814214528, "small": 9007199254740991, "neg": -9223372036854775807, "f": 1.5e300, "s": "12345678901234567890", "a": [1, 2]}';
    expect(parseJsonKeepingBigIntegers(text)).to.deep.equal({
      id: '6636090334814214528',
      small: 9007199254740991,
      neg: '-9223372036854775807',
      f: 1.5e300,
      s: '12345678901234567890',
      a: [1, 2],
    });
  });
  it('leaves escaped quotes inside strings alone', () => {
    expect(parseJsonKeepingBigIntegers('["a \\" 12345678901234567890", 12345678901234567890]')).to.deep.equal([
      'a " 12345678901234567890',
      '12345678901234567890',
    ]);
  });
});

describe('host groups and their limits', () => {
  it('the NCBI sources share one group paced at 3 requests per second', () => {
    expect(['pubmed', 'ncbi-gene', 'geo'].map((id) => hostGroupOf(id as 'pubmed'))).to.deep.equal(['ncbi', 'ncbi', 'ncbi']);
    expect(hostGroupLimit('ncbi')).to.deep.equal({ requestsPerSecond: 3, concurrency: 3 });
  });
  it('any other source is its own group with the limit of its manifest entry', () => {
    expect(hostGroupOf('simbad')).to.equal('simbad');
    expect(hostGroupLimit('simbad')).to.deep.equal({ requestsPerSecond: 5, concurrency: 2 });
  });
  it('runs no more requests of a group at once than its concurrency allows', async () => {
    const limiter = new HostGroupLimiter(() => ({ requestsPerSecond: 1000, concurrency: 2 }), new FastForwardClock());
    let running = 0;
    let most = 0;
    // Each task runs until the test lets it finish; the test is told when one starts.
    const finishers: Array<() => void> = [];
    let started: (() => void) | undefined;
    const task = async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((finish) => {
        finishers.push(finish);
        started?.();
      });
      running -= 1;
    };
    const all = Promise.all(Array.from({ length: 6 }, () => limiter.run('g', task)));
    for (let left = 6; left > 0; left -= 1) {
      // Waits until as many tasks run as the limit allows (fewer at the end), then lets the oldest finish.
      while (finishers.length < Math.min(2, left)) await new Promise<void>((resolve) => (started = resolve));
      // A few turns of the event loop in which a limiter allowing more would start another task.
      for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      finishers.shift()!();
    }
    await all;
    expect([most, running]).to.deep.equal([2, 0]);
  });
  it('an overridden base URL, key and timeout replace the manifest values', () => {
    const resolved = resolveSource('world-bank', { WORLD_BANK: { url: 'http://127.0.0.1:1234/', key: 'k', timeoutMs: 50 } });
    expect([resolved.baseUrl, resolved.key, resolved.timeoutMs]).to.deep.equal(['http://127.0.0.1:1234', 'k', 50]);
    expect(resolveSource('gaia', {}).baseUrl).to.equal('https://gea.esac.esa.int/tap-server/tap');
  });
});
