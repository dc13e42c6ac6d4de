/**
 * A hung source behind its circuit breaker: find_series over FRED (answering at once) and World Bank
 * (never answering, 1 s timeout) through the real server, as the issue measured it. Printed side by
 * side: the calls that waited out World Bank's timeout until its breaker opened, and the calls after
 * it opened, against the same calls with FRED alone; the skipped source should cost milliseconds.
 * Runs alone too: `npx tsx bench/breaker-skip.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realClock } from '../src/clock.ts';
import { migrateToLatest, openDatabase } from '../src/database/index.ts';
import { recording } from '../test/connectors/recordings.ts';
import { json, startFakeUpstream } from '../test/support/fake-upstream.ts';
import { call, newCaller, startServer } from '../test/support/server.ts';

const ROUNDS = Number(process.env.BENCH_BREAKER_ROUNDS ?? 10);
const FAILURES = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function runBreakerBench(): Promise<void> {
  const [fred, worldBank] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
  fred.on('/series/search', json(recording('fred', 'series-search-oil.json')));
  worldBank.on('/sources/2/indicators', { fault: 'no_answer' });
  const folder = mkdtempSync(join(tmpdir(), 'bench-breaker-'));
  const db = openDatabase(`sqlite:${join(folder, 'bench.sqlite')}`);
  await migrateToLatest(db);
  const server = await startServer(db, {
    rateLimitPerMinute: 100_000,
    clock: realClock,
    env: {
      SOURCE_FRED_URL: fred.url,
      SOURCE_FRED_KEY: 'bench-fred-key',
      SOURCE_WORLD_BANK_URL: worldBank.url,
      SOURCE_WORLD_BANK_TIMEOUT_MS: '1000',
      UPSTREAM_BREAKER_FAILURES: String(FAILURES),
      UPSTREAM_BREAKER_PAUSE_MS: '600000',
    },
  });
  try {
    const { key } = await newCaller(db, 10_000);
    const timed = async (sources: string[], round: number) => {
      const started = process.hrtime.bigint();
      const answer = await call(server.baseUrl, '/api/v1/find_series', { key, body: { query: `oil ${round}`, sources } });
      if (answer.status !== 200) throw new Error(`find_series answered ${answer.status}: ${answer.text}`);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const beforeOpen: number[] = [];
    for (let round = 0; round < FAILURES; round += 1) beforeOpen.push(await timed(['fred', 'world-bank'], round));
    const asked = worldBank.hits.length;
    const afterOpen: number[] = [];
    const fredAlone: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      afterOpen.push(await timed(['fred', 'world-bank'], 100 + round));
      fredAlone.push(await timed(['fred'], 200 + round));
    }
    console.log(`breaker: find_series over FRED and a hung World Bank (timeout 1 s), ${FAILURES} calls until the breaker opened, then ${ROUNDS}`);
    console.log(`  until it opened:  median ${median(beforeOpen).toFixed(1)} ms (each waited out World Bank)`);
    console.log(`  after it opened:  median ${median(afterOpen).toFixed(1)} ms, max ${Math.max(...afterOpen).toFixed(1)} ms`);
    console.log(`  FRED alone:       median ${median(fredAlone).toFixed(1)} ms, max ${Math.max(...fredAlone).toFixed(1)} ms`);
    console.log(
      `  added by the skipped source (medians): ${(median(afterOpen) - median(fredAlone)).toFixed(1)} ms; requests World Bank got after it opened: ${worldBank.hits.length - asked}`,
    );
  } finally {
    await server.close();
    await db.destroy();
    await Promise.all([fred.close(), worldBank.close()]);
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runBreakerBench();
