import { expect } from 'chai';
import { ApiError } from '../../src/errors.ts';
import { openDatabase } from '../../src/database/index.ts';
import { createRateLimits } from '../../src/server/rate-limits.ts';
import { describeOnEachEngine } from '../support/databases.ts';

const redisUrl = process.env.TEST_REDIS_URL;

const uniqueKeyId = (prefix: string): string => `${prefix}_${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2)}`;

describeOnEachEngine('the per-key and per-account rate limits', (engine) => {
  // These tests count one key alone: the account-wide limit (its own tests below) is off.
  const stores: Array<[string, { redisUrl?: string; accountPerMinute: number }]> = [['in the database', { accountPerMinute: 0 }]];
  if (redisUrl) stores.push(['in Redis', { redisUrl, accountPerMinute: 0 }]);
  const caller = (keyId: string) => ({ keyId, accountId: `account_of_${keyId}` });

  for (const [store, options] of stores) {
    it(`${store}: of 8 requests that arrive together with a limit of 5, exactly 5 pass, with 4, 3, 2, 1 and 0 left, and 3 get 429`, async function () {
      const limits = await createRateLimits(engine.db, 5, options);
      try {
        const keyId = uniqueKeyId('key_limit');
        const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => limits.consumeKey(caller(keyId))));
        const passed = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value['RateLimit-Remaining']] : []));
        expect(passed.sort().reverse()).to.deep.equal(['4', '3', '2', '1', '0']);
        const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as ApiError] : []));
        expect(refused.map((error) => [error.code, error.headers['RateLimit-Remaining']])).to.deep.equal([
          ['rate_limited', '0'],
          ['rate_limited', '0'],
          ['rate_limited', '0'],
        ]);
        // Later requests are numbered after them, and another key has its own count.
        expect(await limits.consumeKey(caller(keyId)).catch((error: ApiError) => error.code)).to.equal('rate_limited');
        expect((await limits.consumeKey(caller(`${keyId}_other`)))['RateLimit-Remaining']).to.equal('4');
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
          await (index % 2 === 0 ? first : second).consumeKey(caller(keyId)).then(
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

  for (const [store, options] of stores) {
    it(`${store}: an account-wide limit of 8 with a per-key limit of 5: three keys of one account pass 8 requests together, then 429 naming the account, with both policies in the headers`, async function () {
      const limits = await createRateLimits(engine.db, 5, { ...options, accountPerMinute: 8 });
      try {
        const accountId = uniqueKeyId('account_ceiling');
        const keyIds = [1, 2, 3].map((index) => uniqueKeyId(`key_${index}`));
        const outcomes: string[] = [];
        let lastHeaders: Record<string, string> = {};
        let refusal: ApiError | undefined;
        for (let index = 0; index < 12; index += 1) {
          await limits.consumeKey({ keyId: keyIds[index % 3]!, accountId }).then(
            (headers) => (outcomes.push('ok'), (lastHeaders = headers)),
            (error: ApiError) => (outcomes.push(error.code), (refusal ??= error)),
          );
        }
        expect(outcomes).to.deep.equal([...Array(8).fill('ok'), ...Array(4).fill('rate_limited')]);
        // After the 8th: its key (keys[1]) has used 3 of 5, the account 8 of 8: the account is the tighter.
        expect([lastHeaders['RateLimit-Limit'], lastHeaders['RateLimit-Remaining'], lastHeaders['RateLimit-Policy']]).to.deep.equal([
          '8',
          '0',
          '"per-key";q=5;w=60, "per-account";q=8;w=60',
        ]);
        expect(lastHeaders.RateLimit).to.match(/^"per-key";r=2;t=\d+, "per-account";r=0;t=\d+$/);
        expect(refusal!.message).to.match(/^more than 8 requests per minute with this account's keys together; retry in \d+ s$/);
        expect([refusal!.headers['RateLimit-Limit'], refusal!.headers['RateLimit-Remaining'], refusal!.headers['Retry-After']]).to.deep.equal([
          '8',
          '0',
          refusal!.headers['RateLimit-Reset'],
        ]);
        // Another account's key has its own count.
        expect((await limits.consumeKey({ keyId: uniqueKeyId('key_other'), accountId: `${accountId}_other` }))['RateLimit-Remaining']).to.equal('4');
      } finally {
        limits.close();
      }
    });
  }

  it('by default the account-wide limit is 10 times the per-key limit, and is shared by two processes', async function () {
    const first = await createRateLimits(engine.db, 2);
    const second = await createRateLimits(engine.db, 2);
    try {
      const accountId = uniqueKeyId('account_default');
      const outcomes: string[] = [];
      for (let index = 0; index < 24; index += 1) {
        await (index % 2 === 0 ? first : second).consumeKey({ keyId: `${accountId}_key_${Math.floor(index / 2)}`, accountId }).then(
          (headers) => outcomes.push(headers['RateLimit-Policy']!),
          (error: ApiError) => outcomes.push(error.code),
        );
      }
      expect(outcomes).to.deep.equal([...Array(20).fill('"per-key";q=2;w=60, "per-account";q=20;w=60'), ...Array(4).fill('rate_limited')]);
    } finally {
      first.close();
      second.close();
    }
  });

  it('at most 3 new keys per hour with KEY_CREATIONS_PER_HOUR=3: the 4th is 429 with Retry-After; another account is not affected', async function () {
    const limits = await createRateLimits(engine.db, 60, { keyCreationsPerHour: 3 });
    try {
      const accountId = uniqueKeyId('account_creations');
      for (let index = 0; index < 3; index += 1) await limits.consumeKeyCreation(accountId);
      const refused = await limits.consumeKeyCreation(accountId).then(
        () => undefined,
        (error: ApiError) => error,
      );
      expect([refused?.code, refused?.message.replace(/\d+ s$/, 'N s')]).to.deep.equal([
        'rate_limited',
        'more than 3 new keys per hour in this account; retry in N s',
      ]);
      expect(Number(refused!.headers['Retry-After'])).to.be.within(3500, 3600);
      await limits.consumeKeyCreation(`${accountId}_other`);
    } finally {
      limits.close();
    }
  });

  /** A process's rate limits on its own database handle, and how many connections its counts have taken since it was made. */
  async function countedLimits(perMinute: number): Promise<{ limits: Awaited<ReturnType<typeof createRateLimits>>; counts(): number; close(): Promise<void> }> {
    const db = openDatabase(engine.url);
    const client = db.client as { acquireConnection(): Promise<unknown> };
    const acquire = client.acquireConnection.bind(client);
    let connections = 0;
    client.acquireConnection = () => ((connections += 1), acquire());
    const limits = await createRateLimits(db, perMinute, { accountPerMinute: 0 });
    connections = 0;
    return { limits, counts: () => connections, close: async () => (limits.close(), await db.destroy()) };
  }

  it('in the database: with a limit of 10,000, 1,000 requests of a key one after another all pass with 9,999 down to 9,000 left, in 12 counts (each takes up to 1/100 of what is left ahead)', async function () {
    const counted = await countedLimits(10_000);
    try {
      const keyId = uniqueKeyId('key_leased');
      const remaining: string[] = [];
      for (let index = 0; index < 1000; index += 1) remaining.push((await counted.limits.consumeKey(caller(keyId)))['RateLimit-Remaining']!);
      expect(remaining).to.deep.equal(Array.from({ length: 1000 }, (_, index) => String(9999 - index)));
      // The first request is counted alone; the second takes 99 ahead (1/100 of the 9,999 left), the 102nd 98, and so on.
      expect(counted.counts(), 'counts in the database').to.equal(12);
    } finally {
      await counted.close();
    }
  });

  it('in the database: with a limit under 100 no count is leased: 61 requests one after another are 61 counts, and the 61st gets 429', async function () {
    const counted = await countedLimits(60);
    try {
      const keyId = uniqueKeyId('key_small_limit');
      const outcomes: string[] = [];
      for (let index = 0; index < 61; index += 1) {
        outcomes.push(
          await counted.limits.consumeKey(caller(keyId)).then(
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
      const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => counted.limits.consumeKey(caller(keyId))));
      expect(counted.counts(), 'pooled connections taken').to.equal(1);
      const remaining = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value['RateLimit-Remaining'] : (outcome.reason as ApiError).code));
      expect(remaining).to.deep.equal([...Array.from({ length: 30 }, (_, index) => String(29 - index)), ...Array(20).fill('rate_limited')]);
    } finally {
      await counted.close();
    }
  });
});
