import { expect } from 'chai';
import { ApiError } from '../../src/errors.ts';
import { openDatabase } from '../../src/ledger/index.ts';
import { createRateLimits } from '../../src/server/rate-limits.ts';
import { describeOnEachEngine } from '../support/databases.ts';

const redisUrl = process.env.TEST_REDIS_URL;

describeOnEachEngine('the per-key rate limit of one process', (engine) => {
  const stores: Array<[string, { redisUrl?: string }]> = [['in the database', {}]];
  if (redisUrl) stores.push(['in Redis', { redisUrl }]);

  for (const [store, options] of stores) {
    it(`${store}: of 8 requests that arrive together with a limit of 5, exactly 5 pass, with 4, 3, 2, 1 and 0 left, and 3 get 429`, async function () {
      const limits = await createRateLimits(engine.db, 5, options);
      try {
        const keyId = `key_limit_${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2)}`;
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

  it('in the database: 50 requests of one key that arrive together are counted with one connection, numbered in arrival order', async function () {
    const db = openDatabase(engine.url);
    const client = db.client as { acquireConnection(): Promise<unknown> };
    const acquire = client.acquireConnection.bind(client);
    let connections = 0;
    client.acquireConnection = () => ((connections += 1), acquire());
    let limits: Awaited<ReturnType<typeof createRateLimits>> | undefined;
    try {
      limits = await createRateLimits(db, 30);
      const keyId = `key_burst_${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2)}`;
      connections = 0;
      const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => limits!.consumeKey(keyId)));
      expect(connections, 'pooled connections taken').to.equal(1);
      const remaining = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value['RateLimit-Remaining'] : (outcome.reason as ApiError).code));
      expect(remaining).to.deep.equal([...Array.from({ length: 30 }, (_, index) => String(29 - index)), ...Array(20).fill('rate_limited')]);
    } finally {
      limits?.close();
      await db.destroy();
    }
  });
});
