import { expect } from 'chai';
import { ApiError } from '../../src/errors.ts';
import { createRateLimits } from '../../src/server/rate-limits.ts';
import { describeOnEachEngine } from '../support/databases.ts';

describeOnEachEngine('the per-key rate limit in the database', (engine) => {
  it('of 8 requests that arrive together with a limit of 5, exactly 5 pass, with 4, 3, 2, 1 and 0 left, and 3 get 429', async function () {
    const limits = await createRateLimits(engine.db, 5);
    const keyId = `key_limit_${process.pid}_${Date.now()}`;
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => limits.consumeKey(keyId)));
    const passed = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value['RateLimit-Remaining']] : []));
    expect(passed.sort().reverse()).to.deep.equal(['4', '3', '2', '1', '0']);
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as ApiError] : []));
    expect(refused.map((error) => [error.code, error.headers['RateLimit-Remaining']])).to.deep.equal([
      ['rate_limited', '0'],
      ['rate_limited', '0'],
      ['rate_limited', '0'],
    ]);
    // Another key has its own count.
    expect((await limits.consumeKey(`${keyId}_other`))['RateLimit-Remaining']).to.equal('4');
  });
});
