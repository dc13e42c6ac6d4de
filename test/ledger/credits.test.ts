import { expect } from 'chai';
import { createAccount, debit, refund } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { countEntries, expectBalance, expectLedgerError } from './ledger-assertions.ts';

let lastCall = 0;
function newCallId(): string {
  return `call_credits_${process.pid}_${Date.now()}_${++lastCall}`;
}

describeOnEachEngine('credits: debit and refund', (engine) => {
  it('debits a call and keeps the balance equal to the ledger sum', async function () {
    const { id } = await createAccount(engine.db, { name: 'Debit', credits: 10 });
    expect(await debit(engine.db, { callId: newCallId(), accountId: id, credits: 3 })).to.deep.equal({ ok: true });
    await expectBalance(engine.db, id, 7);
    expect(await debit(engine.db, { callId: newCallId(), accountId: id, credits: 7 })).to.deep.equal({ ok: true });
    await expectBalance(engine.db, id, 0);
  });

  it('refuses a debit larger than the balance and leaves no trace', async function () {
    const { id } = await createAccount(engine.db, { name: 'Short', credits: 2 });
    expect(await debit(engine.db, { callId: newCallId(), accountId: id, credits: 3 })).to.deep.equal({
      ok: false,
      balance: 2,
    });
    await expectBalance(engine.db, id, 2);
    expect(await countEntries(engine.db, id)).to.equal(1);
  });

  it('lets a 0-credit debit succeed without writing an entry', async function () {
    const { id } = await createAccount(engine.db, { name: 'Free', credits: 0 });
    expect(await debit(engine.db, { callId: newCallId(), accountId: id, credits: 0 })).to.deep.equal({ ok: true });
    expect(await countEntries(engine.db, id)).to.equal(0);
  });

  it('debits a call id at most once: a second debit is a conflict and changes nothing', async function () {
    const { id } = await createAccount(engine.db, { name: 'Twice', credits: 10 });
    const callId = newCallId();
    await debit(engine.db, { callId, accountId: id, credits: 4 });
    await expectLedgerError(debit(engine.db, { callId, accountId: id, credits: 4 }), 'conflict');
    await expectBalance(engine.db, id, 6);
  });

  it('refunds a debited call once, however often refund is called', async function () {
    const { id } = await createAccount(engine.db, { name: 'Refund', credits: 10 });
    const callId = newCallId();
    await debit(engine.db, { callId, accountId: id, credits: 2 });
    expect(await refund(engine.db, callId)).to.equal(true);
    await expectBalance(engine.db, id, 10);
    expect(await refund(engine.db, callId)).to.equal(false);
    await expectBalance(engine.db, id, 10);
    const kinds = await engine.db('ledger_entries').where({ call_id: callId }).orderBy('id').pluck('kind');
    expect(kinds).to.deep.equal(['debit', 'refund']);
  });

  it('refunds once when refunds of the same call race', async function () {
    const { id } = await createAccount(engine.db, { name: 'Refund race', credits: 5 });
    const callId = newCallId();
    await debit(engine.db, { callId, accountId: id, credits: 5 });
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => refund(engine.db, callId)));
    expect(outcomes.filter(Boolean)).to.have.length(1);
    await expectBalance(engine.db, id, 5);
  });

  it('treats refunding a call that was never debited as a no-op', async function () {
    const { id } = await createAccount(engine.db, { name: 'Never', credits: 3 });
    const refused = newCallId();
    await debit(engine.db, { callId: refused, accountId: id, credits: 4 });
    expect(await refund(engine.db, refused)).to.equal(false);
    expect(await refund(engine.db, newCallId())).to.equal(false);
    await expectBalance(engine.db, id, 3);
    expect(await countEntries(engine.db, id)).to.equal(1);
  });

  it('reports not_found for a debit on an unknown account and invalid_input for bad amounts', async function () {
    await expectLedgerError(debit(engine.db, { callId: newCallId(), accountId: 'acc_doesNotExist00', credits: 1 }), 'not_found');
    const { id } = await createAccount(engine.db, { name: 'Bad amounts', credits: 3 });
    await expectLedgerError(debit(engine.db, { callId: newCallId(), accountId: id, credits: -1 }), 'invalid_input');
    await expectLedgerError(debit(engine.db, { callId: '', accountId: id, credits: 1 }), 'invalid_input');
    await expectBalance(engine.db, id, 3);
  });

  it('lets exactly 50 of 200 concurrent 1-credit debits through on an account holding 50', async function () {
    const { id } = await createAccount(engine.db, { name: 'Concurrent', credits: 50 });
    const results = await Promise.all(
      Array.from({ length: 200 }, () => debit(engine.db, { callId: newCallId(), accountId: id, credits: 1 })),
    );
    expect(results.filter((result) => result.ok)).to.have.length(50);
    expect(results.filter((result) => !result.ok).every((result) => !result.ok && result.balance === 0)).to.equal(true);
    await expectBalance(engine.db, id, 0);
    expect(await countEntries(engine.db, id)).to.equal(51);
  });
});
