import { expect } from 'chai';
import type { Knex } from 'knex';
import {
  LedgerGate,
  createAccount,
  createKey,
  findSettlement,
  hold,
  holdForCall,
  refundCapture,
  releaseExpiredHolds,
  settleCall,
  type CallRecord,
  type Held,
} from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { countEntries, expectBalance, expectLedgerError } from './ledger-assertions.ts';

let lastCall = 0;
function newCallId(): string {
  return `call_credits_${process.pid}_${Date.now()}_${++lastCall}`;
}

const WAIT = { waitMs: 5000 };

function callOf(held: Held, keyId: string | null = null): CallRecord {
  return { callId: held.callId, accountId: held.accountId, keyId, tool: 'search_papers', status: 'ok', credits: 0, durationMs: 1 };
}

/** The database, except that the first transaction's COMMIT succeeds and its answer is lost, as when the connection dies just then. */
function losingFirstCommitAnswer(db: Knex): Knex {
  let lost = false;
  return new Proxy(db, {
    get(target, property) {
      if (property !== 'transaction') return Reflect.get(target, property);
      return async (work: (trx: Knex.Transaction) => Promise<unknown>) => {
        const result = await target.transaction(work);
        if (!lost) {
          lost = true;
          throw Object.assign(new Error('Connection lost: The server closed the connection.'), { code: 'PROTOCOL_CONNECTION_LOST' });
        }
        return result;
      };
    },
  });
}

describeOnEachEngine('credits: holds, settlement and reconciliation', (engine) => {
  async function kinds(callId: string): Promise<string[]> {
    return engine.db('ledger_entries').where({ call_id: callId }).orderBy('id').pluck('kind');
  }

  it('holds a call and keeps the balance equal to the ledger sum', async function () {
    const { id } = await createAccount(engine.db, { name: 'Hold', credits: 10 });
    expect(await hold(engine.db, { callId: newCallId(), accountId: id, credits: 3 })).to.deep.equal({ ok: true });
    await expectBalance(engine.db, id, 7);
    expect(await holdForCall(engine.db, { callId: newCallId(), accountId: id, credits: 7 }, WAIT)).to.deep.equal({ ok: true });
    await expectBalance(engine.db, id, 0);
  });

  it('refuses a hold larger than the balance and leaves no trace', async function () {
    const { id } = await createAccount(engine.db, { name: 'Short', credits: 2 });
    expect(await holdForCall(engine.db, { callId: newCallId(), accountId: id, credits: 3 }, WAIT)).to.deep.equal({ ok: false, balance: 2 });
    await expectBalance(engine.db, id, 2);
    expect(await countEntries(engine.db, id)).to.equal(1);
  });

  it('lets a 0-credit call through without writing an entry', async function () {
    const { id } = await createAccount(engine.db, { name: 'Free', credits: 0 });
    expect(await holdForCall(engine.db, { callId: newCallId(), accountId: id, credits: 0 }, WAIT)).to.deep.equal({ ok: true });
    expect(await countEntries(engine.db, id)).to.equal(0);
  });

  it('holds a call id at most once: a second hold is a conflict and changes nothing', async function () {
    const { id } = await createAccount(engine.db, { name: 'Twice', credits: 10 });
    const callId = newCallId();
    await hold(engine.db, { callId, accountId: id, credits: 4 });
    await expectLedgerError(holdForCall(engine.db, { callId, accountId: id, credits: 4 }, WAIT), 'conflict');
    await expectBalance(engine.db, id, 6);
  });

  it('captures a successful call with its call row, and charges it once however often it is settled', async function () {
    const { id } = await createAccount(engine.db, { name: 'Capture', credits: 10 });
    const { id: keyId } = await createKey(engine.db, id, 'k');
    const held = { callId: newCallId(), accountId: id, credits: 2 };
    await holdForCall(engine.db, held, WAIT);
    expect(await settleCall(engine.db, held, callOf(held, keyId), true)).to.equal(2);
    expect(await settleCall(engine.db, held, callOf(held, keyId), true)).to.equal(2);
    expect(await settleCall(engine.db, held, callOf(held, keyId), false)).to.equal(2);
    expect(await kinds(held.callId)).to.deep.equal(['hold', 'capture']);
    const row = await engine.db('calls').where({ call_id: held.callId }).first('status', 'credits', 'key_id');
    expect([row.status, Number(row.credits), row.key_id]).to.deep.equal(['ok', 2, keyId]);
    await expectBalance(engine.db, id, 8);
  });

  it('refunds a captured call that answered an error once, however often asked, and its call row says so', async function () {
    const { id } = await createAccount(engine.db, { name: 'Refund', credits: 10 });
    const held = { callId: newCallId(), accountId: id, credits: 3 };
    await holdForCall(engine.db, held, WAIT);
    expect(await settleCall(engine.db, held, callOf(held), true)).to.equal(3);
    const answered = { ...callOf(held), status: 'temporarily_unavailable' };
    await refundCapture(losingFirstCommitAnswer(engine.db), held, answered);
    await refundCapture(engine.db, held, answered);
    expect(await kinds(held.callId)).to.deep.equal(['hold', 'capture', 'refund']);
    const row = await engine.db('calls').where({ call_id: held.callId }).first('status', 'credits');
    expect([row.status, Number(row.credits)]).to.deep.equal(['temporarily_unavailable', 0]);
    await expectBalance(engine.db, id, 10);
  });

  it('releases a failed call with its call row; a later capture charges nothing', async function () {
    const { id } = await createAccount(engine.db, { name: 'Release', credits: 10 });
    const held = { callId: newCallId(), accountId: id, credits: 2 };
    await holdForCall(engine.db, held, WAIT);
    expect(await settleCall(engine.db, held, { ...callOf(held), status: 'upstream_error' }, false)).to.equal(0);
    expect(await settleCall(engine.db, held, callOf(held), true)).to.equal(0);
    expect(await kinds(held.callId)).to.deep.equal(['hold', 'release']);
    const row = await engine.db('calls').where({ call_id: held.callId }).first('status', 'credits');
    expect([row.status, Number(row.credits)]).to.deep.equal(['upstream_error', 0]);
    await expectBalance(engine.db, id, 10);
  });

  it('settles a hold once when captures and releases of it race', async function () {
    const { id } = await createAccount(engine.db, { name: 'Race', credits: 5 });
    const held = { callId: newCallId(), accountId: id, credits: 5 };
    await holdForCall(engine.db, held, WAIT);
    const charged = await Promise.all(Array.from({ length: 10 }, (_, i) => settleCall(engine.db, held, callOf(held), i % 2 === 0)));
    expect(new Set(charged).size).to.equal(1);
    const settlement = await findSettlement(engine.db, held.callId);
    expect(charged[0]).to.equal(settlement === 'capture' ? 5 : 0);
    expect(await kinds(held.callId)).to.have.length(2);
    await expectBalance(engine.db, id, 5 - charged[0]!);
  });

  it('40 concurrent failing calls on 20 credits: each call admitted holds its credit, then is released; the others are refused with no entry', async function () {
    this.timeout(20_000);
    const { id } = await createAccount(engine.db, { name: 'Failing', credits: 20 });
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const held = { callId: newCallId(), accountId: id, credits: 1 };
        const taken = await holdForCall(engine.db, held, WAIT);
        if (!taken.ok) return { callId: held.callId, outcome: 'refused' };
        const charged = await settleCall(engine.db, held, { ...callOf(held), status: 'upstream_error' }, false);
        return { callId: held.callId, outcome: charged === 0 ? 'released' : 'charged' };
      }),
    );
    const admitted = outcomes.filter((call) => call.outcome !== 'refused');
    // A refusal means all 20 credits were held by others at that moment: at least 20 calls were admitted, whatever the interleaving.
    expect(admitted.length, 'calls admitted').to.be.at.least(20);
    const entries = await Promise.all(outcomes.map(async (call) => [call.outcome, await kinds(call.callId)]));
    expect(entries.filter(([outcome, written]) => JSON.stringify(written) !== JSON.stringify(outcome === 'refused' ? [] : ['hold', 'release']))).to.deep.equal(
      [],
    );
    expect(admitted.filter((call) => call.outcome !== 'released')).to.deep.equal([]);
    await expectBalance(engine.db, id, 20);
  });

  it('a hold whose COMMIT answer was lost is found by reading again, not taken for "not charged", even when it took the last credit', async function () {
    const { id } = await createAccount(engine.db, { name: 'Lost answer', credits: 1 });
    const held = { callId: newCallId(), accountId: id, credits: 1 };
    expect(await holdForCall(losingFirstCommitAnswer(engine.db), held, WAIT)).to.deep.equal({ ok: true });
    expect(await kinds(held.callId)).to.deep.equal(['hold']);
    await expectBalance(engine.db, id, 0);
  });

  it('a capture whose COMMIT answer was lost is retried into the same single capture and call row', async function () {
    const { id } = await createAccount(engine.db, { name: 'Lost capture', credits: 3 });
    const held = { callId: newCallId(), accountId: id, credits: 1 };
    await holdForCall(engine.db, held, WAIT);
    expect(await settleCall(losingFirstCommitAnswer(engine.db), held, callOf(held), true)).to.equal(1);
    expect(await kinds(held.callId)).to.deep.equal(['hold', 'capture']);
    expect(await engine.db('calls').where({ call_id: held.callId }).pluck('credits')).to.have.length(1);
    await expectBalance(engine.db, id, 2);
  });

  it('lets exactly 50 of 200 concurrent 1-credit holds through on an account holding 50', async function () {
    const { id } = await createAccount(engine.db, { name: 'Concurrent', credits: 50 });
    const results = await Promise.all(Array.from({ length: 200 }, () => holdForCall(engine.db, { callId: newCallId(), accountId: id, credits: 1 }, WAIT)));
    expect(results.filter((result) => result.ok)).to.have.length(50);
    expect(results.filter((result) => !result.ok).every((result) => !result.ok && result.balance === 0)).to.equal(true);
    await expectBalance(engine.db, id, 0);
    expect(await countEntries(engine.db, id)).to.equal(51);
  });

  it('reports not_found for a hold on an unknown account and invalid_input for bad amounts', async function () {
    await expectLedgerError(holdForCall(engine.db, { callId: newCallId(), accountId: 'acc_doesNotExist00', credits: 1 }, WAIT), 'not_found');
    const { id } = await createAccount(engine.db, { name: 'Bad amounts', credits: 3 });
    await expectLedgerError(holdForCall(engine.db, { callId: newCallId(), accountId: id, credits: -1 }, WAIT), 'invalid_input');
    await expectLedgerError(holdForCall(engine.db, { callId: '', accountId: id, credits: 1 }, WAIT), 'invalid_input');
    await expectBalance(engine.db, id, 3);
  });

  it('reconciliation releases old unsettled call holds once, even when two sweeps race, and leaves figures and settled holds alone', async function () {
    const { id } = await createAccount(engine.db, { name: 'Reconcile', credits: 10 });
    const old = new Date(Date.now() - 60_000);
    const open = Array.from({ length: 3 }, () => ({ callId: newCallId(), accountId: id, credits: 1 }));
    const settled = { callId: newCallId(), accountId: id, credits: 1 };
    const figure = { callId: newCallId(), accountId: id, credits: 2 };
    const recent = { callId: newCallId(), accountId: id, credits: 1 };
    for (const held of [...open, settled, figure, recent]) await hold(engine.db, held);
    await settleCall(engine.db, settled, callOf(settled), true);
    await engine.db('figures').insert({
      id: `fig_${figure.callId}`.slice(0, 40),
      account_id: id,
      call_id: figure.callId,
      status: 'pending',
      kind: 'workflow',
      style: 'plain',
      aspect_ratio: '16:9',
      description: 'd',
      spec: '{}',
      price: 2,
      created_at: old,
      queue: `reconcile-test-${Date.now()}`,
    });
    await engine
      .db('ledger_entries')
      .whereIn(
        'call_id',
        [...open, settled, figure].map((held) => held.callId),
      )
      .update({ created_at: old });

    const olderThan = new Date(Date.now() - 30_000);
    const released = await Promise.all([
      releaseExpiredHolds(engine.db, { olderThan, since: new Date(old.getTime() - 1) }),
      releaseExpiredHolds(engine.db, { olderThan }),
    ]);
    // The database may hold other suites' old holds too: only this account's entries are counted.
    expect(released[0] + released[1]).to.be.at.least(3);
    for (const held of open) expect(await kinds(held.callId)).to.deep.equal(['hold', 'release']);
    expect(await kinds(settled.callId)).to.deep.equal(['hold', 'capture']);
    expect(await kinds(figure.callId)).to.deep.equal(['hold']);
    expect(await kinds(recent.callId)).to.deep.equal(['hold']);
    await expectBalance(engine.db, id, 10 - 1 - 2 - 1);
  });

  it('a call that cannot get a place for its account in time is refused as busy, not charged', async function () {
    const { id } = await createAccount(engine.db, { name: 'Gate', credits: 5 });
    const gate = new LedgerGate(1, 10);
    const leave = await gate.enter(id, Date.now() + 1000);
    await expectLedgerError(holdForCall(engine.db, { callId: newCallId(), accountId: id, credits: 1 }, { waitMs: 50, gate }), 'busy');
    leave();
    expect(await holdForCall(engine.db, { callId: newCallId(), accountId: id, credits: 1 }, { waitMs: 50, gate })).to.deep.equal({ ok: true });
    await expectBalance(engine.db, id, 4);
  });
});
