/**
 * The per-key rate limit across server processes: two processes on one database (and, when
 * TEST_REDIS_URL is set, one Redis; and with Redis unreachable, when the database stands in) never
 * admit more than the limit per key and window together.
 * A key sending 200 calls across both within a minute gets exactly 60 answered, the rest 429.
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { describeOnEachEngine } from '../support/databases.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { call, newCaller } from '../support/server.ts';

const ENTRY = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const LIMIT = 60;
const CALLS = 200;
const AT_ONCE = 8;
const redisUrl = process.env.TEST_REDIS_URL;

describeOnEachEngine('the per-key rate limit across two server processes', (engine) => {
  const stores: Array<[string, Record<string, string>]> = [['in the database', {}]];
  // Nothing listens on port 1: every count in Redis fails at once and the database store counts instead.
  if (engine.name === 'sqlite') stores.push(['in the database while Redis is unreachable', { REDIS_URL: 'redis://127.0.0.1:1' }]);
  if (redisUrl) stores.push(['in Redis', { REDIS_URL: redisUrl }]);
  else before(() => console.log('Redis variant of the rate-limit test skipped: set TEST_REDIS_URL=redis://127.0.0.1:6379 to run it.'));

  for (const [store, env] of stores) {
    describe(store, () => {
      let processes: ServerProcess[] = [];
      before(async function () {
        this.timeout(60_000);
        const settings = { DATABASE_URL: engine.url, RATE_LIMIT_PER_MINUTE: String(LIMIT), FIGURE_WORKERS: '0', FILES_DIR: 'off', ...env };
        processes = await Promise.all([startServerProcess(ENTRY, settings), startServerProcess(ENTRY, settings)]);
      });
      after(async () => Promise.all(processes.map((server) => server.stop())));

      it(`${CALLS} calls of one key spread over both processes, ${AT_ONCE} at a time: exactly ${LIMIT} answered, the rest 429`, async function () {
        this.timeout(120_000);
        const caller = await newCaller(engine.db, 0);
        const statuses: number[] = [];
        let next = 0;
        const worker = async (): Promise<void> => {
          while (next < CALLS) {
            const index = next++;
            const answer = await call(processes[index % 2]!.baseUrl, '/api/v1/list_capabilities', { key: caller.key, body: {} });
            statuses.push(answer.status);
          }
        };
        await Promise.all(Array.from({ length: AT_ONCE }, worker));
        const counted = statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
        expect(counted).to.deep.equal({ 200: LIMIT, 429: CALLS - LIMIT });
      });
    });
  }
});
