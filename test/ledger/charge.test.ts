/**
 * CallCharge bounds how long a call's answer waits for the ledger, whatever the writes do: a hold
 * not written within `waitMs` answers busy and is undone after the answer; a capture not written
 * within `waitMs` answers 200 (owed) and lands after the answer; a late release answers the call's
 * error and lands after the answer. The writer here is a stand-in whose writes finish when the test
 * lets them.
 */
import { expect } from 'chai';
import { CallCharge, LedgerError, type CallRecord, type ChargeWriter, type PendingHold, type Settlement } from '../../src/ledger/index.ts';
import { InFlight } from '../../src/server/in-flight.ts';

const WAIT_MS = 20;
const held = { callId: 'call_0123456789abcdef0123456789', accountId: 'acct', credits: 3 };
const row = (status: string): CallRecord => ({
  callId: held.callId,
  accountId: held.accountId,
  keyId: null,
  tool: 'search_papers',
  status,
  credits: 0,
  durationMs: 1,
});

/** A promise and the functions that settle it. */
function gate<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
}

/** A writer whose hold, captures and releases finish when the test settles them; it notes what was written. */
function standInWriter() {
  const hold = gate<{ ok: true; captured: boolean }>();
  const capture = gate<{ settlement: Settlement }>();
  const release = gate<Settlement>();
  const written: string[] = [];
  const writer: ChargeWriter = {
    hold: (): PendingHold => ({ outcome: hold.promise, captureWithHold: () => false, withdrawCapture: () => true, batchMayHaveCommitted: () => false }),
    capture: async () => {
      const done = await capture.promise;
      written.push(`capture`);
      return done;
    },
    release: async (_held, call) => {
      const done = await release.promise;
      written.push(`release (${call.status})`);
      return done;
    },
    releaseInDoubt: async () => undefined,
    refund: async (_held, call) => void written.push(`refund (${call.status})`),
    recordCall: async (call) => void written.push(`row (${call.status})`),
    balance: async () => 0,
  };
  return { writer, hold, capture, release, written };
}

function chargeOn(writer: ChargeWriter, inFlight: InFlight): CallCharge {
  return new CallCharge(writer, held, { waitMs: WAIT_MS, refusal: () => new Error('refused'), tracker: inFlight, onWriteFailed: () => undefined });
}

/** A charge whose hold the stand-in wrote at once. */
async function heldCharge(
  writer: ChargeWriter,
  hold: { resolve(value: { ok: true; captured: boolean }): void },
): Promise<{ charge: CallCharge; inFlight: InFlight }> {
  const inFlight = new InFlight();
  const charge = chargeOn(writer, inFlight);
  const admission = charge.admit()!;
  hold.resolve({ ok: true, captured: false });
  await admission;
  return { charge, inFlight };
}

describe('the charge of a call waits for the ledger at most waitMs', function () {
  it('a hold not written in time answers busy, not charged; when it lands later it is released with the call row', async () => {
    const { writer, hold, release, written } = standInWriter();
    const inFlight = new InFlight();
    const charge = chargeOn(writer, inFlight);
    const admission = charge.admit()!;
    const refused = await admission.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused instanceof LedgerError ? refused.code : refused).to.equal('busy');
    const answered = await charge.fail(new Error('the work was stopped'), () => row('temporarily_unavailable'));
    expect(answered).to.equal(refused);
    expect(charge.state).to.equal('unknown');

    hold.resolve({ ok: true, captured: false });
    release.resolve('release');
    expect(await inFlight.drain(Date.now() + 10_000)).to.equal(true);
    expect([charge.state, written]).to.deep.equal(['released', ['release (temporarily_unavailable)']]);
  });

  it('a capture not written in time answers 200 with the credits (owed), and lands after the answer', async () => {
    const { writer, hold, capture, written } = standInWriter();
    const { charge, inFlight } = await heldCharge(writer, hold);
    const charged = await charge.succeed(row('ok'));
    expect([charged, charge.state]).to.deep.equal([{ credits: 3 }, 'owed']);

    capture.resolve({ settlement: 'capture' });
    expect(await inFlight.drain(Date.now() + 10_000)).to.equal(true);
    expect([charge.state, written]).to.deep.equal(['captured', ['capture']]);
  });

  it('a capture that fails is tried again until it lands, never turned into a release', async () => {
    const { writer, hold, written } = standInWriter();
    let attempts = 0;
    writer.capture = async () => {
      attempts += 1;
      if (attempts === 1) throw Object.assign(new Error('Connection lost: The server closed the connection.'), { code: 'PROTOCOL_CONNECTION_LOST' });
      written.push('capture');
      return { settlement: 'capture' };
    };
    const { charge, inFlight } = await heldCharge(writer, hold);
    expect(await charge.succeed(row('ok'))).to.deep.equal({ credits: 3 });
    expect(await inFlight.drain(Date.now() + 10_000)).to.equal(true);
    expect([charge.state, attempts, written]).to.deep.equal(['captured', 2, ['capture']]);
  });

  it('a capture found committed only after the call answered 503 is refunded, so the error answer costs nothing', async () => {
    const { writer, written } = standInWriter();
    const confirmation = gate<Settlement | undefined>();
    // The hold's batch carried the capture and lost its answer: it may have committed.
    writer.hold = (): PendingHold => ({
      outcome: Promise.reject(Object.assign(new Error('Connection lost'), { code: 'PROTOCOL_CONNECTION_LOST' })),
      captureWithHold: () => true,
      withdrawCapture: () => false,
      batchMayHaveCommitted: () => true,
    });
    writer.releaseInDoubt = async (_held, call) => {
      const settlement = await confirmation.promise;
      written.push(`confirmed ${settlement} (${call.status})`);
      return settlement;
    };
    const inFlight = new InFlight();
    const charge = chargeOn(writer, inFlight);
    await charge.admit()!.catch(() => undefined);
    const answer = await charge.succeed(row('ok')).then(
      () => 'ok',
      (error: unknown) => (error as LedgerError).code,
    );
    expect([answer, charge.state, written]).to.deep.equal(['busy', 'unknown', []]);

    confirmation.resolve('capture');
    expect(await inFlight.drain(Date.now() + 10_000)).to.equal(true);
    expect([charge.state, written]).to.deep.equal(['refunded', ['confirmed capture (temporarily_unavailable)', 'refund (temporarily_unavailable)']]);
  });

  it('a capture found released after the call answered 503 needs no refund', async () => {
    const { writer, written } = standInWriter();
    writer.hold = (): PendingHold => ({
      outcome: Promise.reject(Object.assign(new Error('Connection lost'), { code: 'PROTOCOL_CONNECTION_LOST' })),
      captureWithHold: () => true,
      withdrawCapture: () => false,
      batchMayHaveCommitted: () => true,
    });
    let confirmations = 0;
    writer.releaseInDoubt = async () => {
      confirmations += 1;
      // The first confirmation outlives the answer and fails; the next one finds the hold and releases it.
      await new Promise((resolve) => setTimeout(resolve, 2 * WAIT_MS));
      if (confirmations === 1) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      written.push('release');
      return 'release';
    };
    const inFlight = new InFlight();
    const charge = chargeOn(writer, inFlight);
    await charge.admit()!.catch(() => undefined);
    await charge.succeed(row('ok')).catch(() => undefined);
    expect(await inFlight.drain(Date.now() + 10_000)).to.equal(true);
    expect([charge.state, confirmations, written]).to.deep.equal(['released', 2, ['release']]);
  });

  it('a release not written in time answers the call’s error, and lands after the answer', async () => {
    const { writer, hold, release, written } = standInWriter();
    const { charge, inFlight } = await heldCharge(writer, hold);
    const failure = new Error('upstream failed');
    expect(await charge.fail(failure, () => row('upstream_error'))).to.equal(failure);
    expect(charge.state).to.equal('held');

    release.resolve('release');
    expect(await inFlight.drain(Date.now() + 10_000)).to.equal(true);
    expect([charge.state, written]).to.deep.equal(['released', ['release (upstream_error)']]);
  });
});
