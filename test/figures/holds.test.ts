import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { capture, createAccount, getBalance, hold, ledgerSum, release } from '../../src/ledger/index.ts';
import { inTransaction } from '../../src/database/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';

describeOnEachEngine('ledger holds for figures', (engine) => {
  const callId = (): string => `call_hold_${randomUUID().replace(/-/g, '')}`;

  async function expectBalance(accountId: string, credits: number): Promise<void> {
    expect(await getBalance(engine.db, accountId)).to.equal(credits);
    expect(await ledgerSum(engine.db, accountId)).to.equal(credits);
  }

  it('a hold takes the credits at once and refuses when the balance is short', async () => {
    const { id } = await createAccount(engine.db, { name: 'Holds', credits: 7 });
    expect(await hold(engine.db, { callId: callId(), accountId: id, credits: 5 })).to.deep.equal({ ok: true });
    expect(await hold(engine.db, { callId: callId(), accountId: id, credits: 5 })).to.deep.equal({ ok: false, balance: 2 });
    await expectBalance(id, 2);
  });

  it('captures once; a later capture or release changes nothing', async () => {
    const { id } = await createAccount(engine.db, { name: 'Holds', credits: 10 });
    const call = callId();
    await hold(engine.db, { callId: call, accountId: id, credits: 5 });
    expect(await inTransaction(engine.db, (trx) => capture(trx, call))).to.equal(5);
    expect(await inTransaction(engine.db, (trx) => capture(trx, call))).to.equal(0);
    expect(await inTransaction(engine.db, (trx) => release(trx, call))).to.equal(0);
    await expectBalance(id, 5);
  });

  it('a release gives the credits back once; capture after it changes nothing', async () => {
    const { id } = await createAccount(engine.db, { name: 'Holds', credits: 10 });
    const call = callId();
    await hold(engine.db, { callId: call, accountId: id, credits: 5 });
    expect(await inTransaction(engine.db, (trx) => release(trx, call))).to.equal(5);
    expect(await inTransaction(engine.db, (trx) => release(trx, call))).to.equal(0);
    expect(await inTransaction(engine.db, (trx) => capture(trx, call))).to.equal(0);
    await expectBalance(id, 10);
  });
});
