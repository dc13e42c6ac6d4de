/**
 * The real server against bare node:http and bare Express servers answering the same JSON, side by
 * side in one run: requests/s and p50/p99 latency of a free call, an authenticated charged call (one
 * key, and one key per connection) and a charged call whose upstream answer is cached, on SQLite and
 * on MySQL (a new database, dropped after the run), as ratios to the bare app; the latency of a
 * charged call at a steady half of its peak rate beside bare Express at the same rate (alternating
 * rounds, with a second bare Express process as a control: how far two identical servers' p99
 * differ in the same rounds); each server's peak resident memory over the run; then the cost of
 * each step of the hot path on its own.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { Redis } from 'ioredis';
import type { Knex } from 'knex';
import { CallBatches, authenticateKey, createAccount, createKey, hold, recordCall } from '../src/ledger/index.ts';
import { migrateToLatest, newCallId, openDatabase } from '../src/database/index.ts';
import { KeyVerifier } from '../src/server/key-cache.ts';
import { createRateLimits } from '../src/server/rate-limits.ts';
import { recording } from '../test/connectors/recordings.ts';
import { json, startFakeUpstream } from '../test/support/fake-upstream.ts';
import { startServerProcess, type ServerProcess } from '../test/support/processes.ts';
import type { SteadyRound } from './steady-load.ts';

const run = promisify(execFile);
const STEADY_LOAD = fileURLToPath(new URL('./steady-load.ts', import.meta.url));

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
/** The most resident memory a server process may have held at any moment of the run (docs/operations.md). */
const PEAK_RSS_TARGET_MB = 350;
const CONNECTIONS = 10;
const UNLIMITED = '1000000000';

interface Load {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Sent at a fixed rate: its req/s is the rate asked, not a capacity. */
  fixedRate: boolean;
  /** Requests/s of bare Express answering the same JSON under the same load, measured just before this load. */
  bareBefore?: number;
  /** A fixed-rate load's p99 in each of its rounds (its p99 is of the rounds' latencies pooled). */
  roundsP99?: number[];
}

/** What a load sends: the tool and its arguments. */
interface Call {
  tool: string;
  body: unknown;
}

const CHARGED: Call = { tool: 'search_papers', body: { query: 'open access' } };
const FREE: Call = { tool: 'list_capabilities', body: {} };
/** Fixed dates, so every call asks USGS the same request: the first fills the cache, the rest hit it. */
const CACHED: Call = { tool: 'search_earthquakes', body: { start: '1994-01-17', end: '1994-01-18', min_magnitude: 6 } };

/** Rounds of the steady-rate loads, the targets' alternating; each target's latencies are pooled over its rounds. */
const STEADY_ROUNDS = 5;

/** One round of DURATION_S seconds of `call` at `rate` requests/s, sent by a process of its own (steady-load.ts). */
async function steadyRound(baseUrl: string, key: string | undefined, call: Call, rate: number): Promise<{ latencies: number[]; non2xx: number }> {
  const round: SteadyRound = {
    baseUrl,
    path: `/api/v1/${call.tool}`,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(call.body),
    rate,
    seconds: DURATION_S,
    connections: CONNECTIONS,
  };
  const { stdout } = await run(process.execPath, ['--import', 'tsx', STEADY_LOAD, JSON.stringify(round)], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout) as { latencies: number[]; non2xx: number };
}

const ascending = (a: number, b: number): number => a - b;

/** The `p`th percentile of sorted `latencies`, rounded to 0.1 ms (the added p99 is judged on these, not on whole milliseconds). */
function percentileOf(latencies: number[], p: number): number {
  return Math.round(latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))]! * 10) / 10;
}

/**
 * The targets (the server, bare Express, the control) at the same steady rate, in STEADY_ROUNDS
 * alternating rounds: a stall of the machine lands in one target's round or another's, and the
 * pooled p99 of each target rests on STEADY_ROUNDS times as many calls as one round's.
 */
async function steadyLoads(targets: Array<{ name: string; baseUrl: string; key: string | undefined }>, call: Call, rate: number): Promise<Load[]> {
  const pooled = targets.map(() => ({ latencies: [] as number[], non2xx: 0, roundsP99: [] as number[] }));
  for (let round = 0; round < STEADY_ROUNDS; round += 1) {
    for (const [index, target] of targets.entries()) {
      const { latencies, non2xx } = await steadyRound(target.baseUrl, target.key, call, rate);
      pooled[index]!.latencies.push(...latencies);
      pooled[index]!.non2xx += non2xx;
      pooled[index]!.roundsP99.push(percentileOf(latencies.sort(ascending), 99));
    }
  }
  return targets.map((target, index) => {
    const latencies = pooled[index]!.latencies.sort(ascending);
    return {
      name: target.name,
      requestsPerSecond: latencies.length / (DURATION_S * STEADY_ROUNDS),
      p50: percentileOf(latencies, 50),
      p99: percentileOf(latencies, 99),
      non2xx: pooled[index]!.non2xx,
      fixedRate: true,
      roundsP99: pooled[index]!.roundsP99,
    };
  });
}

/** Loads one target as fast as it answers; with several keys, each connection calls with its own key (its own account). */
async function load(name: string, baseUrl: string, keys: string[] = [], call: Call = CHARGED): Promise<Load> {
  let nextClient = 0;
  const options = {
    url: `${baseUrl}/api/v1/${call.tool}`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(call.body),
    connections: CONNECTIONS,
    setupClient: (client: { setHeaders(headers: Record<string, string>): void }) => {
      const key = keys[nextClient++ % Math.max(keys.length, 1)];
      client.setHeaders({ 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) });
    },
  };
  await autocannon({ ...options, duration: 1 }); // warm-up
  const result = await autocannon({ ...options, duration: DURATION_S });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    fixedRate: false,
  };
}

/**
 * A new, empty database on the MySQL server (when one answers), dropped after the run: every run
 * starts from the same state, not from the rows earlier runs and test suites left in a shared one.
 */
async function freshMysqlDatabase(): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const url = process.env.BENCH_MYSQL_URL ?? (process.env.DATABASE_URL?.startsWith('mysql://') ? process.env.DATABASE_URL : 'mysql://root@127.0.0.1:3306/test');
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const onServer = async (statement: string): Promise<boolean> => {
    const db = openDatabase(url);
    try {
      await db.raw(statement, [name]);
      return true;
    } catch {
      return false;
    } finally {
      await db.destroy();
    }
  };
  if (!(await onServer('CREATE DATABASE ??'))) return undefined;
  const own = new URL(url);
  own.pathname = `/${name}`;
  return { url: own.toString(), drop: async () => void (await onServer('DROP DATABASE IF EXISTS ??')) };
}

/**
 * InnoDB's page flushing as docs/operations.md recommends for a ledger on an SSD, set for this run
 * and put back after (SET GLOBAL needs a user allowed to, as the bench's root is). With MariaDB's
 * defaults (innodb_io_capacity 200, innodb_max_dirty_pages_pct_lwm 0) nothing is flushed in the
 * background until the redo log is nearly full, and the loads before the steady rounds fill it: then
 * commits wait for furious flushing, and the steady rounds measure that instead of the server.
 */
const MYSQL_FLUSHING: Record<string, number> = { innodb_io_capacity: 2000, innodb_max_dirty_pages_pct_lwm: 10 };

async function flushingForRun(url: string): Promise<{ shown: string; restore: () => Promise<void> }> {
  const db = openDatabase(url);
  try {
    const before: Record<string, string> = {};
    for (const name of Object.keys(MYSQL_FLUSHING)) {
      const [rows] = (await db.raw('SHOW GLOBAL VARIABLES LIKE ?', [name])) as [Array<{ Value: string }>];
      before[name] = rows[0]!.Value;
    }
    for (const [name, value] of Object.entries(MYSQL_FLUSHING)) await db.raw(`SET GLOBAL ${name} = ?`, [value]);
    return {
      shown: Object.entries(MYSQL_FLUSHING)
        .map(([name, value]) => `${name} ${value} (was ${Number(before[name])})`)
        .join(', '),
      restore: async () => {
        const again = openDatabase(url);
        try {
          for (const [name, value] of Object.entries(before)) await again.raw(`SET GLOBAL ${name} = ?`, [Number(value)]);
        } finally {
          await again.destroy();
        }
      },
    };
  } catch (error) {
    return { shown: `left as they were (${error instanceof Error ? error.message : String(error)})`, restore: async () => undefined };
  } finally {
    await db.destroy();
  }
}

/** The Redis the MySQL server counts rate limits in (as deployed: many processes share it), when one answers. */
async function redisUrl(): Promise<string | undefined> {
  const url = process.env.BENCH_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, enableOfflineQueue: false });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return url;
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}

async function benchKey(db: Knex): Promise<{ accountId: string; keyId: string; key: string }> {
  await migrateToLatest(db);
  const account = await createAccount(db, { name: 'bench', credits: 1_000_000_000 });
  const key = await createKey(db, account.id, 'bench');
  return { accountId: account.id, keyId: key.id, key: key.key };
}

/**
 * The most memory `pid` has held resident at once since it started (VmHWM, kept by the kernel: no
 * sampling can miss a peak), in MB; undefined where there is no /proc.
 */
function peakResidentMb(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

/** The full (mark-compact) garbage collections a server process has made so far and their time, from its /metrics. */
async function fullCollections(baseUrl: string): Promise<{ count: number; ms: number }> {
  const metrics = await (await fetch(`${baseUrl}/metrics`)).text();
  const value = (series: string): number =>
    Number(new RegExp(`^research_tools_nodejs_gc_duration_seconds_${series}\\{kind="major"\\} (\\S+)$`, 'm').exec(metrics)?.[1] ?? 0);
  return { count: value('count'), ms: value('sum') * 1000 };
}

/** Mean microseconds of one run of `step`, over `count` sequential runs. */
async function timeStep(count: number, step: (index: number) => Promise<unknown>): Promise<number> {
  for (let index = 0; index < 20; index += 1) await step(-index - 1);
  const started = process.hrtime.bigint();
  for (let index = 0; index < count; index += 1) await step(index);
  return Number(process.hrtime.bigint() - started) / 1000 / count;
}

/** Mean microseconds per run of `step` when CONNECTIONS callers run it side by side, `count` runs in all. */
async function timeConcurrently(count: number, step: () => Promise<unknown>): Promise<number> {
  let started = 0;
  const worker = async (): Promise<void> => {
    while (started < count) {
      started += 1;
      await step();
    }
  };
  const began = process.hrtime.bigint();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  return Number(process.hrtime.bigint() - began) / 1000 / count;
}

async function hotPathSteps(engine: string, url: string, redis: string | undefined): Promise<string[]> {
  const db = openDatabase(url);
  try {
    const caller = await benchKey(db);
    const limits = await createRateLimits(db, Number(UNLIMITED));
    const redisLimits = redis ? await createRateLimits(db, Number(UNLIMITED), { redisUrl: redis }) : undefined;
    const cachedKeys = new KeyVerifier(db, { cacheMs: 3_600_000 });
    const count = 300;
    const batches = new CallBatches(db, { waitMs: 10_000 });
    const callRecord = (callId: string) => ({
      callId,
      accountId: caller.accountId,
      keyId: caller.keyId,
      tool: 'search_papers',
      status: 'ok',
      credits: 1,
      durationMs: 1,
    });
    const steps: Array<[string, number]> = [
      ['key + packs lookup (authenticateKey)', await timeStep(count, () => authenticateKey(db, caller.key))],
      ['key + packs, cached (KeyVerifier hit)', await timeStep(count, () => cachedKeys.verify(caller.key))],
      ['rate limit in the database, one call alone', await timeStep(count, () => limits.consumeKey(caller))],
      [`rate limit in the database, ${CONNECTIONS} at once (per call)`, await timeConcurrently(count, () => limits.consumeKey(caller))],
      ...(redisLimits
        ? ([
            ['rate limit in Redis, one call alone', await timeStep(count, () => redisLimits.consumeKey(caller))],
            [`rate limit in Redis, ${CONNECTIONS} at once (per call)`, await timeConcurrently(count, () => redisLimits.consumeKey(caller))],
          ] as Array<[string, number]>)
        : []),
      ['ledger hold, one call alone', await timeStep(count, () => hold(db, { callId: newCallId(), accountId: caller.accountId, credits: 1 }))],
      ['call log insert, one call alone', await timeStep(count, () => recordCall(db, callRecord(newCallId())))],
      [
        `hold + capture + call row, ${CONNECTIONS} at once (per call)`,
        await timeConcurrently(count, async () => {
          const held = { callId: newCallId(), accountId: caller.accountId, credits: 1 };
          await batches.hold(held);
          await batches.capture(held, callRecord(held.callId));
        }),
      ],
      [
        `the same, capture joined to the hold, ${CONNECTIONS} at once`,
        await timeConcurrently(count, async () => {
          const held = { callId: newCallId(), accountId: caller.accountId, credits: 1 };
          const ahead = batches.holdAhead(held);
          ahead.captureWithHold(callRecord(held.callId));
          await ahead.outcome;
        }),
      ],
    ];
    redisLimits?.close();
    return steps.map(([name, micros]) => `  ${engine.padEnd(7)} ${name.padEnd(52)} ${micros.toFixed(0).padStart(6)} µs`);
  } finally {
    await db.destroy();
  }
}

export async function runServerOverheadBench(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'bench-server-'));
  const sqliteUrl = `sqlite:${join(folder, 'bench.sqlite')}`;
  const mysqlDatabase = await freshMysqlDatabase();
  const mysql = mysqlDatabase?.url;
  const flushing = mysql ? await flushingForRun(mysql) : undefined;
  const processes: ServerProcess[] = [];
  const usgs = await startFakeUpstream();
  usgs.on('/query', json(recording('usgs-earthquakes', 'query-northridge-m6.6-one-result.json')));
  try {
    // The bare apps as they ship: plain `node`, without the server's heap flags.
    const bare = (env: Record<string, string>): Promise<ServerProcess> => startServerProcess('bench/bare-server.ts', env, { nodeFlags: [] });
    const bareNode = await bare({ BARE_SERVER: 'node' });
    const bareExpress = await bare({});
    const bareExpressPrototypes = await bare({ BARE_SERVER: 'express-prototypes' });
    // The control of the steady rounds: the same bare Express app in a process of its own.
    const bareExpressControl = await bare({});
    processes.push(bareNode, bareExpress, bareExpressPrototypes, bareExpressControl);
    // SQLite as on a fresh machine (the rate limit in the database file); MySQL as deployed, with Redis for the rate limit.
    const redis = await redisUrl();
    const targets: Array<{ name: string; url: string; env: Record<string, string> }> = [{ name: 'sqlite', url: sqliteUrl, env: {} }];
    if (mysql) targets.push({ name: 'mysql', url: mysql, env: redis ? { REDIS_URL: redis } : {} });
    const servers: Array<{ name: string; server: ServerProcess; keys: string[] }> = [];
    for (const target of targets) {
      const db = openDatabase(target.url);
      // Once, before the keys are made side by side: ten migrations racing for knex's lock on a fresh database outlast its retries on a busy machine.
      await migrateToLatest(db);
      const keys = await Promise.all(Array.from({ length: CONNECTIONS }, () => benchKey(db).then((caller) => caller.key))).finally(() => db.destroy());
      const server = await startServerProcess('test/support/serve.ts', {
        ...target.env,
        DATABASE_URL: target.url,
        RATE_LIMIT_PER_MINUTE: UNLIMITED,
        LOG_LEVEL: 'info',
        SOURCE_USGS_EARTHQUAKES_URL: usgs.url,
        FIGURE_WORKERS: '0',
        FILES_DIR: 'off',
      });
      processes.push(server);
      servers.push({ name: target.name, server, keys });
    }
    console.log(
      `\nServer overhead: ${CONNECTIONS} connections, ${DURATION_S} s each. Charged: POST /api/v1/search_papers (1 credit, answer made in process); free: list_capabilities;`,
    );
    console.log('cache hit: search_earthquakes whose USGS answer is cached; one key, or one key (and account) per connection.');
    console.log(
      `At a fixed rate: the server, bare Express and a second bare Express (the control) in ${STEADY_ROUNDS} alternating rounds of ${DURATION_S} s each, latencies pooled per target.`,
    );
    console.log(`Per-key rate limit: SQLite in the database file; MySQL ${redis && mysql ? `in Redis (${redis})` : 'in the database (no Redis answered)'}.`);
    if (flushing) console.log(`MySQL page flushing for this run (docs/operations.md), put back after: ${flushing.shown}.`);
    const nodeBaseline = await load('bare node:http', bareNode.baseUrl);
    const baseline = await load('bare express', bareExpress.baseUrl);
    // Express as the server runs it (requests made with Express's prototypes): shown beside the baseline, which is Express as it ships.
    const prototypesBaseline = await load('bare express, own prototypes', bareExpressPrototypes.baseUrl);
    // The free call's answer is the capability list (about 9 KB): its baseline answers the same JSON.
    const freeBaseline = await load("bare express, free call's answer", bareExpress.baseUrl, [], FREE);
    const results = [nodeBaseline, baseline, prototypesBaseline, freeBaseline];
    const byEngine = new Map<string, Record<'free' | 'charged' | 'chargedKeys' | 'cached', Load>>();
    // Each load right after bare Express under the same load: a ratio compares two loads seconds apart, on a machine whose speed drifts over minutes.
    const besideBare = async (name: string, baseUrl: string, keys: string[], call: Call): Promise<Load> => {
      const bare = await load('bare express', bareExpress.baseUrl, [], call);
      return { ...(await load(name, baseUrl, keys, call)), bareBefore: bare.requestsPerSecond };
    };
    for (const { name, server, keys } of servers) {
      const free = await besideBare(`${name}, free call`, server.baseUrl, keys.slice(0, 1), FREE);
      const charged = await besideBare(`${name}, charged, 1 key`, server.baseUrl, keys.slice(0, 1), CHARGED);
      const chargedKeys = await besideBare(`${name}, charged, ${keys.length} keys`, server.baseUrl, keys, CHARGED);
      const hitsBefore = usgs.hits.length;
      const cached = await besideBare(`${name}, cache hit`, server.baseUrl, keys.slice(0, 1), CACHED);
      cached.name += ` (${usgs.hits.length - hitsBefore} upstream req.)`;
      results.push(free, charged, chargedKeys, cached);
      byEngine.set(name, { free, charged, chargedKeys, cached });
    }
    // Latency under a steady half of the charged call's peak rate, the bare app given the same rate, in
    // alternating rounds; the control (a second bare Express) shows how far the p99 of two identical
    // servers differ in the same rounds on this machine: the noise under the added p99.
    const halfPeak = new Map<string, { rate: number; charged: Load; bare: Load; control: Load }>();
    const steadyCollections = new Map<string, { count: number; ms: number }>();
    for (const { name, server, keys } of servers) {
      const rate = byEngine.get(name)!.charged.requestsPerSecond / 2;
      const collectionsBefore = await fullCollections(server.baseUrl);
      const [charged, bare, control] = (await steadyLoads(
        [
          { name: `${name}, charged, 1 key, at ${rate.toFixed(0)} req/s`, baseUrl: server.baseUrl, key: keys[0] },
          { name: `bare express at ${rate.toFixed(0)} req/s`, baseUrl: bareExpress.baseUrl, key: undefined },
          { name: `control: 2nd bare express, ${rate.toFixed(0)} req/s`, baseUrl: bareExpressControl.baseUrl, key: undefined },
        ],
        CHARGED,
        rate,
      )) as [Load, Load, Load];
      results.push(charged, bare, control);
      halfPeak.set(name, { rate, charged, bare, control });
      const collectionsAfter = await fullCollections(server.baseUrl);
      steadyCollections.set(name, { count: collectionsAfter.count - collectionsBefore.count, ms: collectionsAfter.ms - collectionsBefore.ms });
    }
    // Read once every load is over: each process's peak over the whole run.
    const peakRss = new Map(servers.map(({ name, server }) => [name, peakResidentMb(server.pid)]));
    const ratio = (load: Load): number => load.requestsPerSecond / load.bareBefore!;
    console.log('  target                                    req/s    p50 ms  p99 ms  bare express just before  ratio to it  non-2xx');
    console.log('  (bare express answers the same JSON: the capability list for the free call, a search answer for the others)');
    // One key puts every call on one account row and one rate-limit row; several keys spread them as real users do.
    for (const result of results) {
      const before = result.bareBefore === undefined ? '' : result.bareBefore.toFixed(0);
      const shownRatio = result.fixedRate ? '(fixed rate)' : result.bareBefore === undefined ? '' : ratio(result).toFixed(2);
      console.log(
        `  ${result.name.padEnd(40)} ${result.requestsPerSecond.toFixed(0).padStart(6)}  ${String(result.p50).padStart(6)}  ${String(result.p99).padStart(6)}  ${before.padStart(24)}  ${shownRatio.padStart(11)}  ${result.non2xx}`,
      );
      if (result.roundsP99) console.log(`    (p99 of each round: ${result.roundsP99.join(', ')} ms)`);
    }
    if (!mysql) console.log('  (MySQL skipped: no server answered at BENCH_MYSQL_URL / DATABASE_URL / mysql://root@127.0.0.1:3306/test)');
    const shownMb = (megabytes: number | undefined): string => (megabytes === undefined ? 'unknown (no /proc)' : `${megabytes} MB`);
    console.log('\nPeak resident memory of each process over the run (VmHWM; the servers with the Node flags of npm start),');
    console.log("and the servers' full garbage collections while their steady rounds ran (what the flags trade memory for):");
    for (const [name, megabytes] of peakRss) {
      const collections = steadyCollections.get(name)!;
      console.log(
        `  ${`${name} server`.padEnd(40)} ${shownMb(megabytes).padStart(9)}  ${collections.count} full collections, ${collections.ms.toFixed(0)} ms in all`,
      );
    }
    console.log(`  ${'bare express (no flags)'.padEnd(40)} ${shownMb(peakResidentMb(bareExpress.pid)).padStart(9)}`);
    console.log('\nIssue targets (from this run):');
    const targetsOf: Record<string, number> = { sqlite: 0.5, mysql: 0.25 };
    for (const [name, loads] of byEngine) {
      const chargedTarget = targetsOf[name] ?? 0.25;
      const line = (what: string, value: string, met: boolean) =>
        console.log(`  ${name.padEnd(7)} ${what.padEnd(52)} ${value.padStart(9)}  ${met ? 'met' : 'NOT met'}`);
      line(`charged (1 key) / bare express >= ${chargedTarget}`, ratio(loads.charged).toFixed(2), ratio(loads.charged) >= chargedTarget);
      line('free call / bare express, same answer >= 0.6', ratio(loads.free).toFixed(2), ratio(loads.free) >= 0.6);
      const gap = loads.cached.p50 - loads.free.p50;
      const halfLoad = halfPeak.get(name)!;
      const addedP99 = halfLoad.charged.p99 - halfLoad.bare.p99;
      line(`added p99 at half the charged peak (${halfLoad.rate.toFixed(0)} req/s) <= 5 ms`, `${addedP99.toFixed(1)} ms`, addedP99 <= 5);
      console.log(
        `  ${name.padEnd(7)} ${'  (control: 2nd bare express p99 - bare express p99'.padEnd(52)} ${`${(halfLoad.control.p99 - halfLoad.bare.p99).toFixed(1)} ms`.padStart(9)}  in the same rounds)`,
      );
      line('cache hit p50 - free call p50 <= 2 ms (all answered)', `${gap.toFixed(2)} ms`, gap <= 2 && loads.cached.non2xx === 0);
      const peak = peakRss.get(name);
      line(
        `peak resident memory of the server <= ${PEAK_RSS_TARGET_MB} MB`,
        peak === undefined ? 'unknown' : `${peak} MB`,
        peak !== undefined && peak <= PEAK_RSS_TARGET_MB,
      );
    }
    console.log('\nHot-path steps on their own (mean of 300 runs, one after another or side by side):');
    for (const target of targets) for (const line of await hotPathSteps(target.name, target.url, target.env.REDIS_URL)) console.log(line);
  } finally {
    await Promise.all(processes.map((server) => server.stop()));
    await usgs.close();
    await flushing?.restore();
    await mysqlDatabase?.drop();
    rmSync(folder, { recursive: true, force: true });
  }
}
