/**
 * The real server against a bare Express app answering the same JSON, side by side in one run:
 * requests/s and p50/p99 latency of an authenticated, charged call on SQLite and on MySQL, as
 * ratios to the bare app; then the cost of each step of the hot path measured on its own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { Knex } from 'knex';
import {
  authenticateKey, createAccount, createKey, hold, migrateToLatest, openDatabase, recordCall,
} from '../src/ledger/index.ts';
import { createRateLimits } from '../src/server/rate-limits.ts';
import { startServerProcess, type ServerProcess } from '../test/support/processes.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = 10;
const UNLIMITED = '1000000000';

interface Load {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
}

/** Loads one target; with several keys, each connection calls with its own key (its own account). */
async function load(name: string, baseUrl: string, keys: string[] = []): Promise<Load> {
  let nextClient = 0;
  const options = {
    url: `${baseUrl}/api/v1/search_papers`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'open access' }),
    connections: CONNECTIONS,
    setupClient: (client: { setHeaders(headers: Record<string, string>): void }) => {
      const key = keys[nextClient++ % Math.max(keys.length, 1)];
      client.setHeaders({ 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) });
    },
  };
  await autocannon({ ...options, duration: 1 }); // warm-up
  const result = await autocannon({ ...options, duration: DURATION_S });
  return { name, requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
}

async function mysqlUrl(): Promise<string | undefined> {
  const url = process.env.BENCH_MYSQL_URL ?? (process.env.DATABASE_URL?.startsWith('mysql://') ? process.env.DATABASE_URL : 'mysql://root@127.0.0.1:3306/test');
  const db = openDatabase(url);
  try {
    await db.raw('select 1');
    return url;
  } catch {
    return undefined;
  } finally {
    await db.destroy();
  }
}

async function benchKey(db: Knex): Promise<{ accountId: string; keyId: string; key: string }> {
  await migrateToLatest(db);
  const account = await createAccount(db, { name: 'bench', credits: 1_000_000_000 });
  const key = await createKey(db, account.id, 'bench');
  return { accountId: account.id, keyId: key.id, key: key.key };
}

/** Mean microseconds of one run of `step`, over `count` sequential runs. */
async function timeStep(count: number, step: (index: number) => Promise<unknown>): Promise<number> {
  for (let index = 0; index < 20; index += 1) await step(-index - 1);
  const started = process.hrtime.bigint();
  for (let index = 0; index < count; index += 1) await step(index);
  return Number(process.hrtime.bigint() - started) / 1000 / count;
}

async function hotPathSteps(engine: string, url: string): Promise<string[]> {
  const db = openDatabase(url);
  try {
    const caller = await benchKey(db);
    const limits = await createRateLimits(db, Number(UNLIMITED));
    const count = 300;
    const run = `${Date.now()}`;
    const steps: Array<[string, number]> = [
      ['key + packs lookup (authenticateKey)', await timeStep(count, () => authenticateKey(db, caller.key))],
      ['rate limiter (consume)', await timeStep(count, () => limits.consumeKey(caller.keyId))],
            ['ledger debit', await timeStep(count, (index) => hold(db, { callId: `call_bench_${run}_${index}`, accountId: caller.accountId, credits: 1 }))],
      ['call log insert', await timeStep(count, (index) => recordCall(db, { callId: `call_benchlog_${run}_${index}`, accountId: caller.accountId, keyId: caller.keyId, tool: 'search_papers', status: 'ok', credits: 1, durationMs: 1 }))],
    ];
    return steps.map(([name, micros]) => `  ${engine.padEnd(7)} ${name.padEnd(36)} ${micros.toFixed(0).padStart(6)} µs`);
  } finally {
    await db.destroy();
  }
}

export async function runServerOverheadBench(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'bench-server-'));
  const sqliteUrl = `sqlite:${join(folder, 'bench.sqlite')}`;
  const mysql = await mysqlUrl();
  const processes: ServerProcess[] = [];
  try {
    const bare = await startServerProcess('bench/bare-server.ts', {});
    processes.push(bare);
    const targets: Array<{ name: string; url: string }> = [{ name: 'sqlite', url: sqliteUrl }];
    if (mysql) targets.push({ name: 'mysql', url: mysql });
    const servers: Array<{ name: string; server: ServerProcess; keys: string[] }> = [];
    for (const target of targets) {
      const db = openDatabase(target.url);
      const keys = await Promise.all(Array.from({ length: CONNECTIONS }, () => benchKey(db).then((caller) => caller.key))).finally(() => db.destroy());
      const server = await startServerProcess('test/support/serve.ts', { DATABASE_URL: target.url, RATE_LIMIT_PER_MINUTE: UNLIMITED, LOG_LEVEL: 'info' });
      processes.push(server);
      servers.push({ name: target.name, server, keys });
    }
    console.log(`\nServer overhead: POST /api/v1/search_papers (authenticated, charged 1 credit), ${CONNECTIONS} connections, ${DURATION_S} s each; one key, or one key (and account) per connection`);
    const baseline = await load('bare express', bare.baseUrl);
    const results = [baseline];
    for (const { name, server, keys } of servers) {
      results.push(await load(`${name}, one key`, server.baseUrl, keys.slice(0, 1)));
      results.push(await load(`${name}, ${keys.length} keys`, server.baseUrl, keys));
    }
    console.log('  target              req/s    p50 ms  p99 ms  req/s ratio to bare  non-2xx');
    // One key puts every call on one account row and one rate-limit row; several keys spread them as real users do.
    for (const result of results) {
      const ratio = result.requestsPerSecond / baseline.requestsPerSecond;
      console.log(`  ${result.name.padEnd(18)} ${result.requestsPerSecond.toFixed(0).padStart(6)}  ${String(result.p50).padStart(6)}  ${String(result.p99).padStart(6)}  ${ratio.toFixed(2).padStart(19)}  ${result.non2xx}`);
    }
    if (!mysql) console.log('  (MySQL skipped: no server answered at BENCH_MYSQL_URL / DATABASE_URL / mysql://root@127.0.0.1:3306/test)');
    console.log('\nHot-path steps on their own (mean of 300 sequential runs):');
    for (const target of targets) for (const line of await hotPathSteps(target.name, target.url)) console.log(line);
  } finally {
    await Promise.all(processes.map((server) => server.stop()));
    rmSync(folder, { recursive: true, force: true });
  }
}
