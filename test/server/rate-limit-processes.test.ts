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
        let busy = 0;
        let next = 0;
        const worker = async (): Promise<void> => {
          while (next < CALLS) {
            const index = next++;
            let answer = await call(processes[index % 2]!.baseUrl, '/api/v1/list_capabilities', { key: caller.key, body: {} });
            // A 503 (SQLite busy past its wait, on a loaded machine) says to try again, as a client does.
            for (let retry = 0; answer.status === 503 && retry < 5; retry += 1) {
              busy += 1;
              answer = await call(processes[index % 2]!.baseUrl, '/api/v1/list_capabilities', { key: caller.key, body: {} });
            }
            statuses.push(answer.status);
          }
        };
        await Promise.all(Array.from({ length: AT_ONCE }, worker));
        const counted = statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
        // A 503 may come after the key's count took its point (the account's count was busy): each may cost one of the 60.
        // Without a 503, exactly 60 answered.
        const answered = counted[200] ?? 0;
        expect([LIMIT - busy <= answered && answered <= LIMIT, counted]).to.deep.equal([true, { 200: answered, 429: CALLS - answered }]);
      });
    });
  }
});
