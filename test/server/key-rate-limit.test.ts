import { expect } from 'chai';
import { ApiError } from '../../src/errors.ts';
import { openDatabase } from '../../src/ledger/index.ts';
import { createRateLimits } from '../../src/server/rate-limits.ts';
import { describeOnEachEngine } from '../support/databases.ts';

const redisUrl = process.env.TEST_REDIS_URL;

const uniqueKeyId = (prefix: string): string => `${prefix}_${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2)}`;

describeOnEachEngine('the per-key rate limit', (engine) => {
  const stores: Array<[string, { redisUrl?: string }]> = [['in the database', {}]];
  if (redisUrl) stores.push(['in Redis', { redisUrl }]);

  for (const [store, options] of stores) {
    it(`${store}: of 8 requests that arrive together with a limit of 5, exactly 5 pass, with 4, 3, 2, 1 and 0 left, and 3 get 429`, async function () {
      const limits = await createRateLimits(engine.db, 5, options);
      try {
        const keyId = uniqueKeyId('key_limit');
        const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => limits.consumeKey(keyId)));
        const passed = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value['RateLimit-Remaining']] : []));
        expect(passed.sort().reverse()).to.deep.equal(['4', '3', '2', '1', '0']);
        const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as ApiError] : []));
        expect(refused.map((error) => [error.code, error.headers['RateLimit-Remaining']])).to.deep.equal([
          ['rate_limited', '0'],
          ['rate_limited', '0'],
          ['rate_limited', '0'],
        ]);
        // Later requests are numbered after them, and another key has its own count.
        expect(await limits.consumeKey(keyId).catch((error: ApiError) => error.code)).to.equal('rate_limited');
        expect((await limits.consumeKey(`${keyId}_other`))['RateLimit-Remaining']).to.equal('4');
      } finally {
        limits.close();
      }
    });
  }

  for (const [store, options] of stores) {
    it(`${store}: two processes sharing the count, a limit of 1,000 and 1,200 requests of a key sent to each in turn: exactly 1,000 pass, the rest get 429`, async function () {
      const first = await createRateLimits(engine.db, 1000, options);
      const second = await createRateLimits(engine.db, 1000, options);
      try {
        const keyId = uniqueKeyId('key_shared');
        let passed = 0;
        const refused: string[] = [];
        for (let index = 0; index < 1200; index += 1) {
          await (index % 2 === 0 ? first : second).consumeKey(keyId).then(
            () => (passed += 1),
            (error: ApiError) => refused.push(error.code),
          );
        }
        expect(passed).to.equal(1000);
        expect(refused).to.deep.equal(Array(200).fill('rate_limited'));
      } finally {
        first.close();
        second.close();
      }
    });
  }

  /** A process's rate limits on its own database handle, and how many connections its counts have taken since it was made. */
  async function countedLimits(perMinute: number): Promise<{ limits: Awaited<ReturnType<typeof createRateLimits>>; counts(): number; close(): Promise<void> }> {
    const db = openDatabase(engine.url);
    const client = db.client as { acquireConnection(): Promise<unknown> };
    const acquire = client.acquireConnection.bind(client);
    let connections = 0;
    client.acquireConnection = () => ((connections += 1), acquire());
    const limits = await createRateLimits(db, perMinute);
    connections = 0;
    return { limits, counts: () => connections, close: async () => (limits.close(), await db.destroy()) };
  }

  it('in the database: with a limit of 10,000, 1,000 requests of a key one after another all pass with 9,999 down to 9,000 left, in 12 counts (each takes up to 1/100 of what is left ahead)', async function () {
    const counted = await countedLimits(10_000);
    try {
      const keyId = uniqueKeyId('key_spares');
      const remaining: string[] = [];
      for (let index = 0; index < 1000; index += 1) remaining.push((await counted.limits.consumeKey(keyId))['RateLimit-Remaining']!);
      expect(remaining).to.deep.equal(Array.from({ length: 1000 }, (_, index) => String(9999 - index)));
      // The first request is counted alone; the second takes 99 ahead (1/100 of the 9,999 left), the 102nd 98, and so on.
      expect(counted.counts(), 'counts in the database').to.equal(12);
    } finally {
      await counted.close();
    }
  });

  it('in the database: with a limit under 100 nothing is taken ahead: 61 requests one after another are 61 counts, and the 61st gets 429', async function () {
    const counted = await countedLimits(60);
    try {
      const keyId = uniqueKeyId('key_small_limit');
      const outcomes: string[] = [];
      for (let index = 0; index < 61; index += 1) {
        outcomes.push(
          await counted.limits.consumeKey(keyId).then(
            (headers) => headers['RateLimit-Remaining']!,
            (error: ApiError) => error.code,
          ),
        );
      }
      expect(outcomes).to.deep.equal([...Array.from({ length: 60 }, (_, index) => String(59 - index)), 'rate_limited']);
      expect(counted.counts(), 'counts in the database').to.equal(61);
    } finally {
      await counted.close();
    }
  });

  it('in the database: 50 requests of one key that arrive together are counted with one connection, numbered in arrival order', async function () {
    const counted = await countedLimits(30);
    try {
      const keyId = uniqueKeyId('key_burst');
      const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => counted.limits.consumeKey(keyId)));
      expect(counted.counts(), 'pooled connections taken').to.equal(1);
      const remaining = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value['RateLimit-Remaining'] : (outcome.reason as ApiError).code));
      expect(remaining).to.deep.equal([...Array.from({ length: 30 }, (_, index) => String(29 - index)), ...Array(20).fill('rate_limited')]);
    } finally {
      await counted.close();
    }
  });
});
