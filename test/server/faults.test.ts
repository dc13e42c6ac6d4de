/**
 * A failed call costs nothing, under faults: concurrent failures, server processes killed with
 * calls in flight, a clean stop mid-call and mid-render, and (MySQL) database connections killed
 * under load. After each test the balance equals the ledger sum and every hold is settled once.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Knex } from 'knex';
import mysql from 'mysql2/promise';
import { getBalance, ledgerSum } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json, startFakeUpstream } from '../support/fake-upstream.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { call, newCaller, type Answer } from '../support/server.ts';
import { ledgerKinds, pollFigure, temporaryFolder } from '../figures/helpers.ts';

const ENTRY = 'test/support/serve.ts';
// One folder for the figure images of both engines' runs (each run has its own queue).
const filesDir = temporaryFolder();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const QUAKES = json({ type: 'FeatureCollection', metadata: { count: 0 }, features: [] });

/** Resolves once the server at `baseUrl` refuses new connections: it has begun its clean stop (it closes its listener first). */
async function untilRefusingConnections(baseUrl: string): Promise<void> {
  const { hostname, port } = new URL(baseUrl);
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), hostname);
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
    await sleep(20);
  }
}

/** A TCP server that accepts connections and never answers: an upstream that hangs. */
async function startSilentUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function holdsOf(db: Knex, accountId: string): Promise<Array<{ call_id: string; settlements: string[] }>> {
  const rows: Array<{ call_id: string; kind: string }> = await db('ledger_entries')
    .where({ account_id: accountId })
    .whereNotNull('call_id')
    .orderBy('id')
    .select('call_id', 'kind');
  const byCall = new Map<string, string[]>();
  for (const row of rows) {
    if (row.kind === 'hold') byCall.set(row.call_id, byCall.get(row.call_id) ?? []);
    else byCall.get(row.call_id)?.push(row.kind);
  }
  return [...byCall.entries()].map(([call_id, settlements]) => ({ call_id, settlements }));
}

/** Polls (within the test's timeout) until no hold of the account is open. */
async function untilAllSettled(db: Knex, accountId: string): Promise<Array<{ call_id: string; settlements: string[] }>> {
  for (;;) {
    const holds = await holdsOf(db, accountId);
    if (holds.every((held) => held.settlements.length > 0)) return holds;
    await sleep(100);
  }
}

async function expectBalance(db: Knex, accountId: string, credits: number): Promise<void> {
  expect(await getBalance(db, accountId), 'balance').to.equal(credits);
  expect(await ledgerSum(db, accountId), 'sum of ledger entries').to.equal(credits);
}

describeOnEachEngine(
  'a failed call costs nothing, under faults',
  (engine) => {
    const running: ServerProcess[] = [];
    async function start(env: Record<string, string> = {}): Promise<ServerProcess> {
      const server = await startServerProcess(ENTRY, { DATABASE_URL: engine.url, RATE_LIMIT_PER_MINUTE: '100000', ...env });
      running.push(server);
      return server;
    }
    afterEach(async function () {
      this.timeout(30_000);
      await Promise.all(running.splice(0).map((server) => server.kill('SIGKILL')));
    });

    it('40 concurrent failing calls on 20 credits through two server processes: no 500, each call admitted is held, then released, balance 20', async function () {
      this.timeout(60_000);
      const servers = await Promise.all([start(), start()]);
      const caller = await newCaller(engine.db, 20);
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          call(servers[index % 2]!.baseUrl, '/api/v1/lookup_integer_sequence', { key: caller.key, body: { query: '1, 2, 3' } }),
        ),
      );
      const failed = answers.filter((answer) => answer.status === 502).length;
      const refused = answers.filter((answer) => answer.status === 402).length;
      expect(failed + refused, 'answers other than 502 and 402').to.equal(40);
      // Calls were admitted: each 502 held its credit in the ledger first. A refusal means all 20 credits were held
      // by others at that moment, so at least 20 calls held one, whatever the interleaving.
      const holds = await holdsOf(engine.db, caller.accountId);
      expect(holds.length, 'holds written').to.equal(failed);
      expect(holds.length, 'holds written').to.be.at.least(20);
      expect(
        holds.filter((held) => held.settlements.join() !== 'release'),
        'holds not released exactly once',
      ).to.deep.equal([]);
      const logged: Array<{ status: string; credits: unknown }> = await engine
        .db('calls')
        .whereIn(
          'call_id',
          holds.map((held) => held.call_id),
        )
        .select('status', 'credits');
      expect(logged.map((row) => [row.status, Number(row.credits)])).to.deep.equal(holds.map(() => ['upstream_error', 0]));
      await expectBalance(engine.db, caller.accountId, 20);
    });

    it('a server killed with 20 charged calls in flight: after a restart, two processes release each of those holds exactly once', async function () {
      this.timeout(90_000);
      const upstream = await startSilentUpstream();
      try {
        const env = {
          SOURCE_USGS_EARTHQUAKES_URL: upstream.url,
          SOURCE_USGS_EARTHQUAKES_TIMEOUT_MS: '120000',
          HOLD_TIMEOUT_MS: '1500',
          HOLD_SWEEP_INTERVAL_MS: '200',
        };
        const first = await start(env);
        const caller = await newCaller(engine.db, 30);
        const answers = Array.from({ length: 20 }, () =>
          call(first.baseUrl, '/api/v1/search_earthquakes', { key: caller.key, body: {} }).catch((error: Error) => error),
        );
        while ((await holdsOf(engine.db, caller.accountId)).length < 20) await sleep(50);
        await expectBalance(engine.db, caller.accountId, 10);
        await first.kill('SIGKILL');
        expect(
          (await Promise.all(answers)).every((answer) => answer instanceof Error),
          'no call was answered',
        ).to.equal(true);

        await Promise.all([start(env), start(env)]);
        const holds = await untilAllSettled(engine.db, caller.accountId);
        expect(holds).to.have.length(20);
        expect(holds.filter((held) => held.settlements.join() !== 'release')).to.deep.equal([]);
        await expectBalance(engine.db, caller.accountId, 30);
      } finally {
        await upstream.close();
      }
    });

    it('a server killed with 20 charged calls in flight beside another: with default settings, the other releases each of those holds within 30 s', async function () {
      this.timeout(90_000);
      const upstream = await startSilentUpstream();
      try {
        // Default lease and hold timeouts: only the upstream is told to hang.
        const env = { SOURCE_USGS_EARTHQUAKES_URL: upstream.url, SOURCE_USGS_EARTHQUAKES_TIMEOUT_MS: '120000' };
        const [first] = await Promise.all([start(env), start(env)]);
        const caller = await newCaller(engine.db, 30);
        const answers = Array.from({ length: 20 }, () =>
          call(first!.baseUrl, '/api/v1/search_earthquakes', { key: caller.key, body: {} }).catch((error: Error) => error),
        );
        while ((await holdsOf(engine.db, caller.accountId)).length < 20) await sleep(50);
        await first!.kill('SIGKILL');
        const killedAt = Date.now();
        await Promise.all(answers);
        const bound = killedAt + 30_000;
        let holds = await holdsOf(engine.db, caller.accountId);
        while (holds.some((held) => held.settlements.length === 0) && Date.now() < bound) {
          await sleep(200);
          holds = await holdsOf(engine.db, caller.accountId);
        }
        expect(
          holds.filter((held) => held.settlements.join() !== 'release'),
          'holds not released exactly once within 30 s of the kill',
        ).to.deep.equal([]);
        expect(holds).to.have.length(20);
        await expectBalance(engine.db, caller.accountId, 30);
      } finally {
        await upstream.close();
      }
    });

    it('a clean stop waits for calls in progress up to its grace period: one that finishes meanwhile answers 200 and is charged, one cut off is released', async function () {
      this.timeout(60_000);
      const upstream = await startFakeUpstream();
      try {
        // The call asking for magnitude 6 never gets an answer; the one asking for magnitude 5 gets it once the upstream is let go.
        upstream.on('/query', (hit) => (hit.query.get('minmagnitude') === '6' ? { fault: 'no_answer' } : QUAKES));
        upstream.hold();
        const server = await start({ SOURCE_USGS_EARTHQUAKES_URL: upstream.url, SOURCE_USGS_EARTHQUAKES_TIMEOUT_MS: '120000', SHUTDOWN_GRACE_MS: '4000' });
        const caller = await newCaller(engine.db, 5);
        const quakes = (minMagnitude: number) =>
          call(server.baseUrl, '/api/v1/search_earthquakes', { key: caller.key, body: { min_magnitude: minMagnitude } }).catch((error: Error) => error);
        const finishing = quakes(5);
        const cutOff = quakes(6);
        while ((await holdsOf(engine.db, caller.accountId)).length < 2 || upstream.hits.length < 2) await sleep(50);

        const stopped = server.stop();
        await untilRefusingConnections(server.baseUrl);
        // The server is stopping, both calls still in progress: the upstream answers one of them now.
        upstream.release();
        const [finished, cut] = await Promise.all([finishing, cutOff]);
        await stopped;

        if (finished instanceof Error) throw new Error(`the call that finished within the grace period got no answer: ${finished.message}`);
        expect([finished.status, finished.body.credits_used]).to.deep.equal([200, 1]);
        expect(cut instanceof Error, 'the call cut off got no answer').to.equal(true);
        const settled = await holdsOf(engine.db, caller.accountId);
        expect(settled.map((held) => [held.call_id === finished.body.call_id, held.settlements])).to.have.deep.members([
          [true, ['capture']],
          [false, ['release']],
        ]);
        await expectBalance(engine.db, caller.accountId, 4);
      } finally {
        await upstream.close();
      }
    });

    it('a server stopped mid-render puts the figure back in the queue; a restarted server finishes it, charged once', async function () {
      this.timeout(90_000);
      const queue = `faults-${process.pid}-${Date.now()}`;
      const env = { FILES_DIR: filesDir, FIGURE_QUEUE: queue, FIGURE_SYNC_WAIT_MS: '0' };
      const first = await start({ ...env, TEST_RENDER_DELAY_MS: '60000' });
      const caller = await newCaller(engine.db, 10);
      const created: Answer = await call(first.baseUrl, '/api/v1/create_figure', {
        key: caller.key,
        body: { description: 'Sampling, then sequencing, then assembly' },
      });
      const figureId = created.body.extra.figure_id as string;
      while ((await engine.db('figures').where({ id: figureId }).first('status')).status !== 'rendering') await sleep(50);
      await first.stop();
      const row = await engine.db('figures').where({ id: figureId }).first('status', 'attempts');
      expect([row.status, Number(row.attempts)]).to.deep.equal(['pending', 0]);

      const second = await start(env);
      const finished = await pollFigure(second.baseUrl, caller.key, figureId);
      expect(finished.body.extra).to.include({ status: 'finished', credits_used: 5 });
      expect((await ledgerKinds(engine.db, created.body.call_id)).map((entry) => entry.kind)).to.deep.equal(['hold', 'capture']);
      await expectBalance(engine.db, caller.accountId, 5);
    });

    if (engine.name === 'mysql') {
      it('with its database connections killed again and again mid-query, every 200 is charged and logged, and nothing else is', async function () {
        this.timeout(120_000);
        const server = await start({ HOLD_TIMEOUT_MS: '5000', HOLD_SWEEP_INTERVAL_MS: '500' });
        const caller = await newCaller(engine.db, 1000);
        const killer = await mysql.createConnection(engine.url);
        const database = new URL(engine.url).pathname.slice(1);
        let kills = 0;
        let loading = true;
        // Kills the connections of this database (the suite's own) that are running a statement or hold an open transaction: only the server's, as the test's own pool is idle meanwhile.
        const killing = (async () => {
          while (loading) {
            const [rows] = await killer.query(
              `select p.id from information_schema.processlist p
              where p.db = ? and p.id <> connection_id() and (p.command = 'Query' or p.id in (select trx_mysql_thread_id from information_schema.innodb_trx))`,
              [database],
            );
            for (const { id } of rows as Array<{ id: number }>) {
              await killer.query(`KILL CONNECTION ${Number(id)}`).then(
                () => (kills += 1),
                () => undefined,
              );
            }
            await sleep(5);
          }
        })();
        const answers: Answer[] = [];
        try {
          const worker = async (worker: number): Promise<void> => {
            for (let index = 0; index < 40; index++) {
              const tool = (index + worker) % 3 === 0 ? 'lookup_integer_sequence' : 'search_papers';
              const body = tool === 'search_papers' ? { query: `q${worker}-${index}` } : { query: '1, 2, 3' };
              answers.push(await call(server.baseUrl, `/api/v1/${tool}`, { key: caller.key, body }));
            }
          };
          await Promise.all(Array.from({ length: 8 }, (_, worker) => worker).map(worker));
        } finally {
          loading = false;
          await killing;
          await killer.end();
        }
        expect(kills, 'connections killed').to.be.greaterThan(0);
        const ok = answers.filter((answer) => answer.status === 200);
        expect(ok.length, 'calls answered 200').to.be.greaterThan(0);
        expect(
          answers.filter((answer) => answer.status !== 200).every((answer) => typeof answer.body?.error?.code === 'string'),
          'every error is JSON',
        ).to.equal(true);
        // A lost connection is a 503 (retry later), never a 500; the failing tool's own 502 stays.
        expect(
          [...new Set(answers.map((answer) => answer.status))].filter((status) => ![200, 502, 503].includes(status)),
          `other statuses (the server's last error lines: ${server.errorLines().join('\n') || 'none'})`,
        ).to.deep.equal([]);

        const holds = await untilAllSettled(engine.db, caller.accountId);
        expect(
          holds.filter((held) => held.settlements.length !== 1),
          'holds settled more than once',
        ).to.deep.equal([]);
        const spent = ok.reduce((sum, answer) => sum + Number(answer.body.credits_used), 0);
        await expectBalance(engine.db, caller.accountId, 1000 - spent);
        const captured = new Set(holds.filter((held) => held.settlements[0] === 'capture').map((held) => held.call_id));
        expect([...captured].sort(), 'captured holds are the charged 200s').to.deep.equal(
          ok
            .filter((answer) => answer.body.credits_used > 0)
            .map((answer) => answer.body.call_id as string)
            .sort(),
        );
        const rows: Array<{ call_id: string; status: string; credits: unknown }> = await engine
          .db('calls')
          .whereIn(
            'call_id',
            ok.map((answer) => answer.body.call_id as string),
          )
          .select('call_id', 'status', 'credits');
        expect(rows.length, 'call rows of the 200s').to.equal(ok.length);
        expect(rows.every((row) => row.status === 'ok')).to.equal(true);
      });
    }
  },
  // Its faults reach the whole database: connections killed whatever they serve, every old hold swept.
  { ownDatabase: true },
);
