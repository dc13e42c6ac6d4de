import { expect } from 'chai';
import { createAccount, createKey, recordCall, usage } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { expectLedgerError } from './ledger-assertions.ts';

let lastCall = 0;
function newCallId(): string {
  return `call_usage_${process.pid}_${Date.now()}_${++lastCall}`;
}

describeOnEachEngine('calls and usage', (engine) => {
  it('lists recorded calls newest first with tool, status, credits and time', async function () {
    const { id: accountId } = await createAccount(engine.db, { name: 'Usage', credits: 0 });
    const { id: keyId } = await createKey(engine.db, accountId);
    const older = newCallId();
    const newer = newCallId();
    await recordCall(engine.db, {
      callId: older,
      accountId,
      keyId,
      tool: 'search_papers',
      status: 'ok',
      credits: 1,
      durationMs: 120,
      at: new Date('2026-01-02T03:04:05.678Z'),
    });
    await recordCall(engine.db, {
      callId: newer,
      accountId,
      keyId,
      tool: 'verify_references',
      status: 'upstream_error',
      credits: 0,
      durationMs: 3000,
      at: new Date('2026-01-02T03:04:06.001Z'),
    });
    expect(await usage(engine.db, accountId)).to.deep.equal([
      { call_id: newer, tool: 'verify_references', status: 'upstream_error', credits: 0, created_at: '2026-01-02T03:04:06.001Z' },
      { call_id: older, tool: 'search_papers', status: 'ok', credits: 1, created_at: '2026-01-02T03:04:05.678Z' },
    ]);
    expect(await usage(engine.db, accountId, { limit: 1 })).to.have.length(1);
  });

  it('answers an empty list for an account without calls', async function () {
    const { id } = await createAccount(engine.db, { name: 'Quiet', credits: 0 });
    expect(await usage(engine.db, id)).to.deep.equal([]);
  });

  it('records a call id once: a second record is a conflict', async function () {
    const { id: accountId } = await createAccount(engine.db, { name: 'Once', credits: 0 });
    const call = { callId: newCallId(), accountId, keyId: null, tool: 'get_paper', status: 'ok', credits: 1, durationMs: 5 };
    await recordCall(engine.db, call);
    await expectLedgerError(recordCall(engine.db, call), 'conflict');
  });

  it('reports not_found for calls of an unknown account', async function () {
    await expectLedgerError(
      recordCall(engine.db, {
        callId: newCallId(),
        accountId: 'acc_doesNotExist00',
        keyId: null,
        tool: 'get_paper',
        status: 'ok',
        credits: 1,
        durationMs: 5,
      }),
      'not_found',
    );
    await expectLedgerError(usage(engine.db, 'acc_doesNotExist00'), 'not_found');
  });
});
