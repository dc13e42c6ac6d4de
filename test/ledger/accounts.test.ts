import { expect } from 'chai';
import { LedgerError, addCredits, createAccount, getAccount, ledgerSum } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { expectLedgerError } from './ledger-assertions.ts';

describeOnEachEngine('accounts', (engine) => {
  it('creates an account holding its initial credits as one grant entry', async function () {
    const account = await createAccount(engine.db, { name: 'Lab A', credits: 100 });
    expect(account.id).to.match(/^acc_[0-9A-Za-z]{16}$/);
    expect(account).to.deep.equal({ id: account.id, name: 'Lab A', credits: 100 });
    const entries = await engine.db('ledger_entries').where({ account_id: account.id }).select('kind', 'amount', 'call_id');
    expect(entries.map((entry) => ({ ...entry, amount: Number(entry.amount) }))).to.deep.equal([{ kind: 'grant', amount: 100, call_id: null }]);
  });

  it('writes no ledger entry for an account created with 0 credits', async function () {
    const account = await createAccount(engine.db, { name: 'Empty', credits: 0 });
    expect(await engine.db('ledger_entries').where({ account_id: account.id }).count({ n: '*' })).to.deep.equal([{ n: 0 }]);
    expect(await ledgerSum(engine.db, account.id)).to.equal(0);
  });

  it('shows an account with its credits and every pack switched on', async function () {
    const account = await createAccount(engine.db, { name: 'Lab B', credits: 7 });
    expect(await getAccount(engine.db, account.id)).to.deep.equal({
      id: account.id,
      name: 'Lab B',
      credits: 7,
      packs: { general: true, life: true, chem: true, earth: true, astro: true, humanities: true },
    });
  });

  it('answers null for an unknown account', async function () {
    expect(await getAccount(engine.db, 'acc_doesNotExist00')).to.equal(null);
  });

  it('adds credits as a grant and returns the new balance', async function () {
    const account = await createAccount(engine.db, { name: 'Lab C', credits: 10 });
    expect(await addCredits(engine.db, account.id, 15)).to.deep.equal({ id: account.id, credits: 25 });
    expect(await addCredits(engine.db, account.id, 0)).to.deep.equal({ id: account.id, credits: 25 });
    expect(await ledgerSum(engine.db, account.id)).to.equal(25);
  });

  it('refuses negative or fractional credits and empty names as invalid_input', async function () {
    await expectLedgerError(createAccount(engine.db, { name: 'x', credits: -1 }), 'invalid_input');
    await expectLedgerError(createAccount(engine.db, { name: 'x', credits: 1.5 }), 'invalid_input');
    await expectLedgerError(createAccount(engine.db, { name: '   ', credits: 1 }), 'invalid_input');
    const account = await createAccount(engine.db, { name: 'Lab D', credits: 1 });
    await expectLedgerError(addCredits(engine.db, account.id, -5), 'invalid_input');
  });

  it('reports not_found when adding credits to an unknown account', async function () {
    const error = await expectLedgerError(addCredits(engine.db, 'acc_doesNotExist00', 5), 'not_found');
    expect(error).to.be.instanceOf(LedgerError);
    expect(await engine.db('ledger_entries').where({ account_id: 'acc_doesNotExist00' }).count({ n: '*' })).to.deep.equal([{ n: 0 }]);
  });
});
