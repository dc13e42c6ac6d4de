/**
 * Fan-out: one charged call through the real server whose handler asks three sources at once,
 * the sources answering after 100, 200 and 300 ms (a fake upstream on loopback). The call should
 * take about the slowest source's time, not the sum. Printed side by side in one run: the
 * fan-out call, the same three requests made one after another, and both as ratios to the slowest.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolHandlers } from '../generated/routes.ts';
import type { SourceId } from '../generated/types.ts';
import { migrateToLatest, openDatabase } from '../src/database/index.ts';
import type { ToolContext } from '../src/tools/context.ts';
import { createHandlers } from '../src/tools/handlers.ts';
import { assemble, fanOut, makeRecord } from '../src/tools/result.ts';
import { createUpstreamClient } from '../src/upstream/client.ts';
import { json, startFakeUpstream } from '../test/support/fake-upstream.ts';
import { call, newCaller, startServer } from '../test/support/server.ts';

const ROUNDS = Number(process.env.BENCH_FANOUT_ROUNDS ?? 10);
/** Three sources with the manifest's faster request rates, so pacing never adds to the figure. */
const DELAYS: Array<[SourceId, number]> = [
  ['usgs-earthquakes', 100],
  ['simbad', 200],
  ['uniprot', 300],
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function runFanoutBench(): Promise<void> {
  const fake = await startFakeUpstream();
  const env: Record<string, string> = {};
  for (const [source, delayMs] of DELAYS) {
    fake.on(`/${source}`, json({ source, delayMs }, { delayMs }));
    env[`SOURCE_${source.toUpperCase().replace(/-/g, '_')}_URL`] = fake.url;
  }

  // search_papers stands in for any multi-source tool: its handler fans out over the three sources.
  const fanOutHandler: ToolHandlers<ToolContext>['search_papers'] = async (args, context) => {
    const fan = await fanOut(
      DELAYS.map(([source]) => ({
        source,
        run: () => context.upstream.getJson<{ delayMs: number }>(source, { path: `/${source}`, searchParams: { q: args.query } }),
      })),
    );
    const records = fan.answered.map(({ source, value }) =>
      makeRecord(context.upstream, source, { nativeId: args.query, type: 'paper', retrievedAt: value.retrievedAt, data: { found_in: [source] } }),
    );
    return assemble(fan, records as never, `${records.length} answers.`);
  };

  const folder = mkdtempSync(join(tmpdir(), 'bench-fanout-'));
  const db = openDatabase(`sqlite:${join(folder, 'ledger.sqlite')}`);
  await migrateToLatest(db);
  const server = await startServer(db, { env, rateLimitPerMinute: 1_000_000, handlers: { ...createHandlers(), search_papers: fanOutHandler } });
  const caller = await newCaller(db, 1_000_000);
  const sequentialClient = createUpstreamClient({
    sources: Object.fromEntries(DELAYS.map(([source]) => [source.toUpperCase().replace(/-/g, '_'), { url: fake.url }])),
    contactEmail: undefined,
    redisUrl: undefined,
  });

  try {
    const fanOutMs: number[] = [];
    const sequentialMs: number[] = [];
    for (let round = 0; round < ROUNDS + 1; round += 1) {
      const query = `bench-${Date.now()}-${round}`; // a new query each round: nothing comes from the cache
      let started = performance.now();
      const answer = await call(server.baseUrl, '/api/v1/search_papers', { method: 'POST', key: caller.key, body: { query } });
      const fanOutTime = performance.now() - started;
      if (answer.status !== 200 || answer.body.records.length !== DELAYS.length) throw new Error(`fan-out call failed: ${answer.status} ${answer.text}`);

      started = performance.now();
      for (const [source] of DELAYS) await sequentialClient.getJson(source, { path: `/${source}`, searchParams: { q: `${query}-sequential` } });
      const sequentialTime = performance.now() - started;
      if (round === 0) continue; // warm-up
      fanOutMs.push(fanOutTime);
      sequentialMs.push(sequentialTime);
    }
    const slowest = Math.max(...DELAYS.map(([, delay]) => delay));
    const sum = DELAYS.reduce((total, [, delay]) => total + delay, 0);
    const fan = median(fanOutMs);
    const sequential = median(sequentialMs);
    console.log(
      `fan-out: 3 sources answering after ${DELAYS.map(([, delay]) => delay).join('/')} ms (slowest ${slowest} ms, sum ${sum} ms), median of ${ROUNDS} charged calls through the server`,
    );
    console.log(`  fan-out call            ${fan.toFixed(0).padStart(5)} ms   ratio to slowest ${(fan / slowest).toFixed(2)}`);
    console.log(`  same requests in turn   ${sequential.toFixed(0).padStart(5)} ms   ratio to slowest ${(sequential / slowest).toFixed(2)}`);
  } finally {
    await server.close();
    await sequentialClient.close();
    await fake.close();
    await db.destroy();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runFanoutBench();
}
