import { expect } from 'chai';
import type { Knex } from 'knex';
import {
  CallBatches,
  createAccount,
  createKey,
  addCredits,
  hold,
  holdAhead,
  holdForCall,
  recordCallReliably,
  releaseIfHeld,
  settleCall,
  type CallRecord,
  type Held,
} from '../../src/ledger/index.ts';
import { newCallId } from '../../src/database/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { expectBalance, expectLedgerError } from './ledger-assertions.ts';

const WAIT_MS = 5000;

function callOf(held: Held, keyId: string | null = null): CallRecord {
  return { callId: held.callId, accountId: held.accountId, keyId, tool: 'search_papers', status: 'ok', credits: 0, durationMs: 3 };
}

interface PoolClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void>;
}

/**
 * The database as the group commit sees it, counting the connections it takes (one per batch); with
 * `loseFirstCommitAnswer`, the first COMMIT on a taken connection succeeds and its answer is lost,
 * as when the connection dies just then.
 */
function watched(
  db: Knex,
  options: { loseFirstCommitAnswer?: boolean; acquisitionGates?: Array<Promise<void>> } = {},
): { db: Knex; batches: () => number; roundTrips: () => number; answerLost: () => boolean } {
  let taken = 0;
  let queries = 0;
  let lost = !options.loseFirstCommitAnswer;
  const lostAnswer = (): Error => Object.assign(new Error('Connection lost: The server closed the connection.'), { code: 'PROTOCOL_CONNECTION_LOST' });
  const wrap = (connection: Record<string, unknown>): unknown =>
    new Proxy(connection, {
      get(target, property) {
        const value = Reflect.get(target, property) as unknown;
        if (typeof value !== 'function') return value;
        if (property === 'prepare') {
          // better-sqlite3: the COMMIT statement runs, then reports a failure once.
          return (sql: string) => {
            const statement = (value as (text: string) => { run(): unknown }).call(target, sql);
            if (sql !== 'COMMIT') return statement;
            return {
              reader: false,
              run: () => {
                const result = statement.run();
                if (!lost) {
                  lost = true;
                  throw lostAnswer();
                }
                return result;
              },
            };
          };
        }
        if (property === 'query') {
          // mysql2: counted (one script, one round trip); a script that ends with COMMIT runs, then its callback hears a lost connection once.
          return (sql: string, params: unknown[], callback: (error: Error | null, result?: unknown) => void) => {
            queries += 1;
            (value as (text: string, values: unknown[], done: typeof callback) => void).call(target, sql, params, (error, result) => {
              if (/COMMIT$/.test(sql) && !error && !lost) {
                lost = true;
                return callback(lostAnswer());
              }
              callback(error, result);
            });
          };
        }
        return (value as (...args: unknown[]) => unknown).bind(target);
      },
    });
  const originals = new WeakMap<object, unknown>();
  const client = new Proxy(db.client as PoolClient, {
    get(target, property) {
      if (property === 'acquireConnection') {
        return async () => {
          taken += 1;
          // The n-th connection is handed out once the test opens the n-th gate (when it gave one).
          await options.acquisitionGates?.[taken - 1];
          const connection = (await target.acquireConnection()) as Record<string, unknown>;
          const wrapped = wrap(connection) as object;
          originals.set(wrapped, connection);
          return wrapped;
        };
      }
      if (property === 'releaseConnection') return (connection: object) => target.releaseConnection(originals.get(connection) ?? connection);
      return Reflect.get(target, property);
    },
  });
  return {
    db: new Proxy(db, { get: (target, property) => (property === 'client' ? client : Reflect.get(target, property)) }),
    batches: () => taken,
    /** Scripts sent to MySQL/MariaDB (each one round trip). */
    roundTrips: () => queries,
    answerLost: () => Boolean(options.loseFirstCommitAnswer) && lost,
  };
}

describeOnEachEngine('the group commit of holds, captures and call rows', (engine) => {
  async function kinds(callId: string): Promise<string[]> {
    return engine.db('ledger_entries').where({ call_id: callId }).orderBy('id').pluck('kind');
  }

  function calls(accountId: string, count: number, credits = 1): Held[] {
    return Array.from({ length: count }, () => ({ callId: newCallId(), accountId, credits }));
  }

  it('holds 20 calls that arrive together in one transaction, and says the balance left', async function () {
    const { id } = await createAccount(engine.db, { name: 'Batch', credits: 50 });
    const { db, batches } = watched(engine.db);
    const group = new CallBatches(db, { waitMs: WAIT_MS });
    const results = await Promise.all(calls(id, 20, 2).map((held) => group.hold(held)));
    expect(results).to.deep.equal(Array.from({ length: 20 }, () => ({ ok: true, balance: 10 })));
    expect(batches()).to.equal(1);
    await expectBalance(engine.db, id, 10);
  });

  if (engine.name === 'mysql') {
    it('on MySQL/MariaDB, a batch whose holds the balance covers is one round trip, its COMMIT included', async function () {
      const { id } = await createAccount(engine.db, { name: 'Batch one trip', credits: 50 });
      const { db, batches, roundTrips } = watched(engine.db);
      const group = new CallBatches(db, { waitMs: WAIT_MS });
      const results = await Promise.all(calls(id, 20, 2).map((held) => group.hold(held)));
      expect([results.every((result) => result.ok), batches(), roundTrips()]).to.deep.equal([true, 1, 1]);
      await expectBalance(engine.db, id, 10);
    });
  }

  it('admits holds in order while the credits last and refuses the rest, which leave no trace', async function () {
    const { id } = await createAccount(engine.db, { name: 'Batch short', credits: 7 });
    const { db, batches, roundTrips } = watched(engine.db);
    const group = new CallBatches(db, { waitMs: WAIT_MS });
    const held = [...calls(id, 3, 2), ...calls(id, 2, 1), ...calls(id, 1, 5)];
    const results = await Promise.all(held.map((one) => group.hold(one)));
    // MySQL/MariaDB: the batch's one-trip attempt finds the balance short and writes nothing; a second transaction reads the balance, then writes.
    expect([batches(), roundTrips()]).to.deep.equal(engine.name === 'mysql' ? [2, 3] : [1, 0]);
    // 2+2+2 fit in 7, the next 1 fits, the following 1 and 5 do not.
    expect(results.map((result) => result.ok)).to.deep.equal([true, true, true, true, false, false]);
    expect(results.map((result) => result.balance)).to.deep.equal([0, 0, 0, 0, 0, 0]);
    expect(await kinds(held[4]!.callId)).to.deep.equal([]);
    expect(await kinds(held[5]!.callId)).to.deep.equal([]);
    await expectBalance(engine.db, id, 0);
  });

  it('captures charged calls and writes every call row, free calls included, in one transaction with the holds that arrive meanwhile', async function () {
    const { id } = await createAccount(engine.db, { name: 'Batch capture', credits: 10 });
    const key = await createKey(engine.db, id, 'batch');
    const group = new CallBatches(engine.db, { waitMs: WAIT_MS });
    const charged = calls(id, 3, 2);
    await Promise.all(charged.map((held) => group.hold(held)));
    const free = { callId: newCallId(), accountId: id, credits: 0 };
    const later = calls(id, 2, 1);
    const { db, batches } = watched(engine.db);
    const watchedGroup = new CallBatches(db, { waitMs: WAIT_MS });
    const settled = await Promise.all([
      ...charged.map((held) => watchedGroup.capture(held, callOf(held, key.id))),
      watchedGroup.capture(free, callOf(free, key.id)),
      ...later.map((held) => watchedGroup.hold(held)),
    ]);
    expect(settled).to.deep.equal([
      { credits: 2, balance: 2 },
      { credits: 2, balance: 2 },
      { credits: 2, balance: 2 },
      { credits: 0, balance: 2 },
      { ok: true, balance: 2 },
      { ok: true, balance: 2 },
    ]);
    expect(batches()).to.equal(1);
    for (const held of charged) expect(await kinds(held.callId)).to.deep.equal(['hold', 'capture']);
    expect(await kinds(free.callId)).to.deep.equal([]);
    const rows = await engine
      .db('calls')
      .whereIn(
        'call_id',
        [...charged, free].map((held) => held.callId),
      )
      .orderBy('credits')
      .select('key_id', 'status', 'credits', 'duration_ms');
    expect(rows.map((row) => [row.key_id, row.status, Number(row.credits), Number(row.duration_ms)])).to.deep.equal([
      [key.id, 'ok', 0, 3],
      [key.id, 'ok', 2, 3],
      [key.id, 'ok', 2, 3],
      [key.id, 'ok', 2, 3],
    ]);
    await expectBalance(engine.db, id, 2);
  });

  it('a batch whose holds the balance does not cover still captures its ended calls, then admits the holds in order', async function () {
    const { id } = await createAccount(engine.db, { name: 'Batch short with captures', credits: 4 });
    const group = new CallBatches(engine.db, { waitMs: WAIT_MS });
    const [ended, first, second] = [...calls(id, 2, 2), ...calls(id, 1, 1)] as [Held, Held, Held];
    expect(await group.hold(ended)).to.deep.equal({ ok: true, balance: 2 });
    const settled = await Promise.all([group.capture(ended, callOf(ended)), group.hold(first), group.hold(second)]);
    expect(settled).to.deep.equal([
      { credits: 2, balance: engine.name === 'mysql' ? 2 : 0 },
      { ok: true, balance: 0 },
      { ok: false, balance: 0 },
    ]);
    expect([await kinds(ended.callId), await kinds(first.callId), await kinds(second.callId)]).to.deep.equal([['hold', 'capture'], ['hold'], []]);
    await expectBalance(engine.db, id, 0);
  });

  it('a batch whose COMMIT answer was lost: every call finds its hold and is held once, the last credit included', async function () {
    const { id } = await createAccount(engine.db, { name: 'Batch lost answer', credits: 5 });
    const { db, answerLost } = watched(engine.db, { loseFirstCommitAnswer: true });
    const group = new CallBatches(db, { waitMs: WAIT_MS });
    const held = calls(id, 5);
    const results = await Promise.all(held.map((one) => holdForCall(db, one, { waitMs: WAIT_MS, batches: group })));
    expect(answerLost()).to.equal(true);
    expect(results.map((result) => result.ok)).to.deep.equal([true, true, true, true, true]);
    for (const one of held) expect(await kinds(one.callId)).to.deep.equal(['hold']);
    await expectBalance(engine.db, id, 0);
  });

  it('a capture batch whose COMMIT answer was lost: each call is captured once with one call row', async function () {
    const { id } = await createAccount(engine.db, { name: 'Batch lost capture', credits: 5 });
    const held = calls(id, 3);
    for (const one of held) await hold(engine.db, one);
    const free = { callId: newCallId(), accountId: id, credits: 0 };
    const { db, answerLost } = watched(engine.db, { loseFirstCommitAnswer: true });
    const group = new CallBatches(db, { waitMs: WAIT_MS });
    const charged = await Promise.all([...held, free].map((one) => settleCall(db, one, callOf(one), true, { batches: group })));
    expect(answerLost()).to.equal(true);
    expect(charged).to.deep.equal([1, 1, 1, 0]);
    for (const one of held) expect(await kinds(one.callId)).to.deep.equal(['hold', 'capture']);
    const rows = await engine
      .db('calls')
      .whereIn(
        'call_id',
        [...held, free].map((one) => one.callId),
      )
      .pluck('call_id');
    expect(rows).to.have.length(4);
    await expectBalance(engine.db, id, 2);
  });

  it('a batch holding a call id twice fails as a whole; one by one, each call is held once', async function () {
    const { id } = await createAccount(engine.db, { name: 'Batch conflict', credits: 5 });
    const group = new CallBatches(engine.db, { waitMs: WAIT_MS });
    const [first, second] = calls(id, 2);
    const outcomes = await Promise.allSettled([first!, second!, first!].map((one) => holdForCall(engine.db, one, { waitMs: WAIT_MS, batches: group })));
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(['fulfilled', 'fulfilled', 'fulfilled']);
    // The per-call way reads before holding again, as after any failed batch: the repeat finds the hold of its call id.
    expect(await kinds(first!.callId)).to.deep.equal(['hold']);
    expect(await kinds(second!.callId)).to.deep.equal(['hold']);
    await expectBalance(engine.db, id, 3);
  });

  it('a capture batch that meets a hold the reconciler released: that call is charged nothing, the others are captured', async function () {
    const { id } = await createAccount(engine.db, { name: 'Batch released', credits: 5 });
    const held = calls(id, 3);
    for (const one of held) await hold(engine.db, one);
    await releaseIfHeld(engine.db, held[1]!.callId);
    const group = new CallBatches(engine.db, { waitMs: WAIT_MS });
    const charged = await Promise.all(held.map((one) => settleCall(engine.db, one, callOf(one), true, { batches: group })));
    expect(charged).to.deep.equal([1, 0, 1]);
    expect(await kinds(held[1]!.callId)).to.deep.equal(['hold', 'release']);
    expect(await engine.db('calls').where({ call_id: held[1]!.callId }).pluck('credits')).to.deep.equal([0]);
    await expectBalance(engine.db, id, 3);
  });

  it('reads the balance once for the calls of an account that ask together, and afresh for a call that asks later', async function () {
    const { id } = await createAccount(engine.db, { name: 'Batch balance', credits: 12 });
    const { db, batches } = watched(engine.db);
    const group = new CallBatches(db, { waitMs: WAIT_MS });
    expect(await Promise.all(Array.from({ length: 10 }, () => group.balance(id)))).to.deep.equal(Array.from({ length: 10 }, () => 12));
    expect(batches()).to.equal(1);
    await addCredits(engine.db, id, 5);
    expect(await group.balance(id)).to.equal(17);
    expect(batches()).to.equal(2);
    await expectLedgerError(group.balance('acc_doesNotExist00'), 'not_found');
  });

  it('a capture submitted as soon as its hold is answered joins the batch that follows, with the holds that arrived meanwhile', async function () {
    const { id } = await createAccount(engine.db, { name: 'Capture joins', credits: 5 });
    let open!: () => void;
    const { db, batches } = watched(engine.db, { acquisitionGates: [new Promise<void>((resolve) => (open = resolve))] });
    const group = new CallBatches(db, { waitMs: WAIT_MS });
    const [quick, later] = calls(id, 2, 1) as [Held, Held];
    // A call whose tool answers at once: its capture is submitted when its hold is answered.
    const captured = group.hold(quick).then(() => group.capture(quick, callOf(quick)));
    // The hold's batch has started (it waits for its connection at the gate); another call's hold arrives meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    const held = group.hold(later);
    open();
    expect([await captured, await held]).to.deep.equal([
      { credits: 1, balance: 3 },
      { ok: true, balance: 3 },
    ]);
    expect(batches()).to.equal(2);
    await expectBalance(engine.db, id, 3);
  });

  it('a capture given to a hold before its batch starts is written with it: hold, capture and call row in one transaction', async function () {
    const { id } = await createAccount(engine.db, { name: 'Held and captured', credits: 5 });
    const { db, batches, roundTrips } = watched(engine.db);
    const group = new CallBatches(db, { waitMs: WAIT_MS });
    const [quick, slow] = calls(id, 2, 2) as [Held, Held];
    const quickAhead = group.holdAhead(quick);
    const slowAhead = group.holdAhead(slow);
    expect(quickAhead.captureWithHold(callOf(quick))).to.equal(true);
    expect([await quickAhead.outcome, await slowAhead.outcome]).to.deep.equal([
      { ok: true, balance: 1, captured: true },
      { ok: true, balance: 1, captured: false },
    ]);
    // MySQL/MariaDB: one round trip, its COMMIT included.
    expect([batches(), roundTrips()]).to.deep.equal([1, engine.name === 'mysql' ? 1 : 0]);
    // Once the batch has started, a capture no longer joins it.
    expect(slowAhead.captureWithHold(callOf(slow))).to.equal(false);
    expect([await kinds(quick.callId), await kinds(slow.callId)]).to.deep.equal([['hold', 'capture'], ['hold']]);
    expect(await engine.db('calls').where({ account_id: id }).select('call_id', 'credits', 'status')).to.deep.equal([
      { call_id: quick.callId, credits: 2, status: 'ok' },
    ]);
    await expectBalance(engine.db, id, 1);
  });

  it('a hold given its capture that the balance does not cover writes nothing, neither capture nor call row', async function () {
    const { id } = await createAccount(engine.db, { name: 'Held short', credits: 3 });
    const { db, batches } = watched(engine.db);
    const group = new CallBatches(db, { waitMs: WAIT_MS });
    const held = calls(id, 3, 2);
    const aheads = held.map((one) => group.holdAhead(one));
    expect(aheads.map((ahead, index) => ahead.captureWithHold(callOf(held[index]!)))).to.deep.equal([true, true, true]);
    expect(await Promise.all(aheads.map((ahead) => ahead.outcome))).to.deep.equal([
      { ok: true, balance: 1, captured: true },
      { ok: false, balance: 1, captured: false },
      { ok: false, balance: 1, captured: false },
    ]);
    // MySQL/MariaDB: the one-trip attempt writes nothing; the second transaction admits in order.
    expect(batches()).to.equal(engine.name === 'mysql' ? 2 : 1);
    expect(await Promise.all(held.map((one) => kinds(one.callId)))).to.deep.equal([['hold', 'capture'], [], []]);
    expect(await engine.db('calls').where({ account_id: id }).pluck('call_id')).to.deep.equal([held[0]!.callId]);
    await expectBalance(engine.db, id, 1);
  });

  it('a hold and its capture whose batch lost its COMMIT answer: found one by one, then settled one by one, charged once with one call row', async function () {
    const { id } = await createAccount(engine.db, { name: 'Held and captured, answer lost', credits: 5 });
    const { db, answerLost } = watched(engine.db, { loseFirstCommitAnswer: true });
    const group = new CallBatches(db, { waitMs: WAIT_MS });
    const [one] = calls(id, 1, 2) as [Held];
    const ahead = holdAhead(db, one, { waitMs: WAIT_MS, batches: group });
    expect(ahead.captureWithHold(callOf(one))).to.equal(true);
    // The batch did commit; the per-call way finds its hold, and cannot know the capture was written with it.
    expect([await ahead.outcome, answerLost()]).to.deep.equal([{ ok: true, captured: false }, true]);
    expect(await settleCall(db, one, callOf(one), true)).to.equal(2);
    expect(await kinds(one.callId)).to.deep.equal(['hold', 'capture']);
    expect(await engine.db('calls').where({ call_id: one.callId }).pluck('credits')).to.deep.equal([2]);
    await expectBalance(engine.db, id, 3);
  });

  it("shares with a call the account's balance read that started after the call began, not one that started before", async function () {
    const { id } = await createAccount(engine.db, { name: 'Shared balance', credits: 12 });
    const opens: Array<() => void> = [];
    const gates = [0, 1].map(() => new Promise<void>((open) => opens.push(open)));
    const { db, batches } = watched(engine.db, { acquisitionGates: gates });
    const group = new CallBatches(db, { waitMs: WAIT_MS });
    const callBegan = performance.now();
    const first = group.balance(id);
    // The first read has started (it waits for its connection at the first gate).
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches()).to.equal(1);
    const begunBefore = group.balance(id, callBegan);
    const begunAfter = group.balance(id, performance.now());
    opens[0]!();
    await first;
    await addCredits(engine.db, id, 5);
    opens[1]!();
    expect(await Promise.all([first, begunBefore, begunAfter])).to.deep.equal([12, 12, 17]);
    expect(batches()).to.equal(2);
  });

  it('writes the rows of calls that end together, whatever their account, with one statement', async function () {
    const first = await createAccount(engine.db, { name: 'Rows one', credits: 1 });
    const second = await createAccount(engine.db, { name: 'Rows two', credits: 1 });
    const ended = [...calls(first.id, 3, 0), ...calls(second.id, 3, 0)];
    const { db, batches } = watched(engine.db);
    const group = new CallBatches(db, { waitMs: WAIT_MS });
    await Promise.all(ended.map((one, index) => group.recordCall({ ...callOf(one), status: index % 2 ? 'ok' : 'invalid_input', durationMs: index })));
    expect(batches()).to.equal(1);
    const rows = await engine
      .db('calls')
      .whereIn(
        'call_id',
        ended.map((one) => one.callId),
      )
      .select('call_id', 'account_id', 'status', 'credits', 'duration_ms');
    const byCall = new Map(rows.map((row) => [row.call_id, [row.account_id, row.status, Number(row.credits), Number(row.duration_ms)]]));
    expect(ended.map((one) => byCall.get(one.callId))).to.deep.equal(ended.map((one, index) => [one.accountId, index % 2 ? 'ok' : 'invalid_input', 0, index]));
  });

  it('gathers the rows of calls that end a moment apart (not only in one turn of the event loop) into one statement', async function () {
    const { id } = await createAccount(engine.db, { name: 'Rows apart', credits: 1 });
    const ended = calls(id, 3, 0);
    const { db, batches } = watched(engine.db);
    const group = new CallBatches(db, { waitMs: WAIT_MS, callRowsGatherMs: 500 });
    const written: Array<Promise<void>> = [];
    for (const one of ended) {
      written.push(group.recordCall(callOf(one)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(written);
    expect(batches()).to.equal(1);
    expect(await engine.db('calls').where({ account_id: id }).count({ rows: '*' })).to.deep.equal([{ rows: 3 }]);
  });

  it('a batch of call rows that fails is written one by one, and a row already written stays the only one', async function () {
    const { id } = await createAccount(engine.db, { name: 'Rows conflict', credits: 1 });
    const ended = calls(id, 4, 0);
    const group = new CallBatches(engine.db, { waitMs: WAIT_MS });
    await group.recordCall(callOf(ended[2]!));
    // The batch of all four fails on the row already there; each is then written on its own, that one found written.
    await Promise.all(ended.map((one) => recordCallReliably(engine.db, callOf(one), { batches: group })));
    const counts = await engine
      .db('calls')
      .whereIn(
        'call_id',
        ended.map((one) => one.callId),
      )
      .groupBy('call_id')
      .select('call_id')
      .count({ rows: '*' });
    expect(counts.map((row) => Number(row.rows))).to.deep.equal([1, 1, 1, 1]);
  });

  it('reports not_found for holds on an unknown account', async function () {
    const group = new CallBatches(engine.db, { waitMs: WAIT_MS });
    await expectLedgerError(
      holdForCall(engine.db, { callId: newCallId(), accountId: 'acc_doesNotExist00', credits: 1 }, { waitMs: WAIT_MS, batches: group }),
      'not_found',
    );
  });
});
