/**
 * The charge of a tool call, from hold to settlement, as the call path uses it:
 *
 *   const held = await holdForCall(db, { callId, accountId, credits }, options);   // before the work
 *   const charged = await settleCall(db, held, call, succeeded);                   // after it
 *
 * A call answering 200 captures its hold; any other answer releases it, and the call's row in the
 * call log is written in the same transaction as the settlement, so a settled call always has it.
 * Both steps are retried on deadlocks, lock-wait and statement timeouts and lost connections with
 * the same call id: the unique indexes make a repeated write a no-op, which is also how a COMMIT
 * whose acknowledgement was lost is found out. A hold nobody settles (a crash, a database out of
 * reach for longer than the retries) is released by the reconciler (reconcile.ts).
 *
 * With `batches` (the server's), the first attempt of a hold and of a capture joins the account's
 * group commit (call-batches.ts); when that batch fails, the call goes on here one by one as above.
 * The server holds with holdAhead: the work starts while the hold is written, and a quick call's
 * capture joins the hold's batch.
 */
import type { Knex } from 'knex';
import type { CallBatches } from './call-batches.ts';
import { recordCall, type CallRecord } from './calls.ts';
import type { LeaseHolder } from './leases.ts';
import { callRow } from './rows.ts';
import { LedgerError } from './errors.ts';
import type { LedgerGate } from './gate.ts';
import type { ChargeWriter, PendingHold } from './charge.ts';
import { findHold, findSettlement, hold, writeCapture, writeRefund, writeRelease, type Held, type HoldResult, type Settlement } from './holds.ts';
import { isTransient, retryTransient } from '../database/retry.ts';
import { requireCallId, requireSafeInteger } from './validation.ts';

/** How long settling (and writing the call log) keeps retrying before leaving the hold to the reconciler. */
export const SETTLE_RETRY_MS = 30_000;

/**
 * How long the release of a call whose hold batch carried its capture and lost its answer keeps
 * trying to find out what committed. The call's answer waits for it only until the hold's
 * CHARGE_WAIT_MS (charge.ts, `confirm`); the rest goes on after the answer, then the reconciler.
 */
export const IN_DOUBT_RETRY_MS = 60_000;

/**
 * How long the row of a call that settles nothing (free, refused, failed before its hold) is retried
 * after the answer: nobody waits for it but a shutdown (bounded by its grace period), and without it
 * a 200 would have no row after a database outage longer than SETTLE_RETRY_MS.
 */
export const CALL_ROW_RETRY_MS = 5 * 60_000;

export interface HoldOptions {
  /** How long the call may wait for its hold, in milliseconds; then it is refused as busy, not charged. */
  waitMs: number;
  /** Bounds this process's concurrent ledger writes per account. */
  gate?: LedgerGate;
  /** The group commit of the call path; without it each hold is a transaction of its own. */
  batches?: CallBatches;
  /** The lease of this process, named by its holds (leases.ts). */
  lease?: LeaseHolder;
}

export interface SettleOptions {
  /** The group commit of the call path; without it each settlement is a transaction of its own. */
  batches?: CallBatches;
  /** Receives the account's balance when the settlement read it (a batched capture does). */
  onBalance?(balance: number): void;
}

/**
 * Holds the call's credits, retrying transient failures until `waitMs` has passed. Throws
 * LedgerError busy when the hold could not be taken in time: the call is then not charged (a hold
 * whose outcome stayed unknown is looked up and released in the background, or by the reconciler).
 */
export async function holdForCall(db: Knex, held: Held, options: HoldOptions): Promise<HoldResult> {
  requireCallId(held.callId);
  requireSafeInteger(held.credits, 'credits', 0);
  if (held.credits === 0) return { ok: true };
  const deadline = Date.now() + options.waitMs;
  if (!options.batches) return holdOneByOne(db, held, options, deadline, false);
  try {
    return await options.batches.hold(held);
  } catch (error) {
    if (error instanceof LedgerError && error.code === 'busy') throw error;
    return holdOneByOne(db, held, options, deadline, true);
  }
}

/**
 * A hold taken while the call's work already runs (see CallBatches.holdAhead). Its `outcome` is as
 * holdForCall's result, `captured` when the capture and the call row were written with the hold.
 * When the batch failed, the hold is taken one by one as holdForCall does, and is never `captured`:
 * the caller then settles it one by one (settleCall without batches).
 */
export type HeldAhead = PendingHold;

/**
 * Holds the call's credits (a price above 0) in the account's next batch and returns at once, so
 * the work can run meanwhile; it must not act outside the process before `outcome` says the
 * credits are held. A quick call's capture then joins the hold's own batch: one transaction.
 */
export function holdAhead(db: Knex, held: Held, options: HoldOptions & { batches: CallBatches }): HeldAhead {
  requireCallId(held.callId);
  requireSafeInteger(held.credits, 'credits', 1);
  const deadline = Date.now() + options.waitMs;
  const ahead = options.batches.holdAhead(held);
  let batchFailed = false;
  let batchMayHaveCommitted = false;
  const outcome = ahead.outcome.catch(async (error: unknown) => {
    if (error instanceof LedgerError && error.code === 'busy') throw error;
    batchFailed = true;
    batchMayHaveCommitted = answerLost(error);
    return { ...(await holdOneByOne(db, held, options, deadline, true)), captured: false };
  });
  return {
    outcome,
    captureWithHold: ahead.captureWithHold,
    // A batch that failed with an answer committed nothing: the capture it carried is out of it.
    withdrawCapture: () => ahead.withdrawCapture() || (batchFailed && !batchMayHaveCommitted),
    batchMayHaveCommitted: () => batchMayHaveCommitted,
  };
}

/**
 * A failure after which the batch may have committed all the same: its connection was lost or killed
 * without an answer (the COMMIT may have run). Any answer from the database (a deadlock, a lock wait
 * or statement timeout, a busy SQLite file, a refused connection) means nothing was committed.
 */
function answerLost(error: unknown): boolean {
  const { code, errno, message } = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; errno?: unknown; message?: unknown };
  if (typeof code === 'string' && ['PROTOCOL_CONNECTION_LOST', 'ECONNRESET', 'EPIPE'].includes(code)) return true;
  // CR_SERVER_GONE_ERROR, CR_SERVER_LOST, ER_CONNECTION_KILLED (MariaDB), ER_SERVER_SHUTDOWN
  if (typeof errno === 'number' && [2006, 2013, 1927, 1053].includes(errno)) return true;
  return typeof message === 'string' && /closed state|connection lost|connection was killed|server has gone away|Connection terminated/i.test(message);
}

/** Holds in a transaction of the call's own, retried until `deadline`; after a failed batch, first looks for what it wrote. */
async function holdOneByOne(db: Knex, held: Held, options: HoldOptions, deadline: number, batchFailed: boolean): Promise<HoldResult> {
  let leave = (): void => undefined;
  if (options.gate) {
    try {
      leave = await options.gate.enter(held.accountId, deadline);
    } catch (error) {
      // No place in time after a failed batch, which may have held all the same.
      if (batchFailed) void releaseIfHeld(db, held.callId).catch(() => undefined);
      throw error;
    }
  }
  try {
    return await retryTransient(deadline, async (attempt) => {
      // A failed attempt may have committed all the same (the answer to its COMMIT was lost, or the
      // server finished it after the connection died): read before holding again, and read again
      // when the new attempt finds the credits already gone or the call already holding.
      const earlierMayHaveCommitted = batchFailed || attempt > 1;
      if (earlierMayHaveCommitted && (await findHold(db, held.callId))) return { ok: true };
      try {
        const result = await hold(db, { ...held, leaseId: options.lease?.id });
        if (!result.ok && earlierMayHaveCommitted && (await findHold(db, held.callId))) return { ok: true };
        return result;
      } catch (error) {
        if (earlierMayHaveCommitted && error instanceof LedgerError && error.code === 'conflict') return { ok: true };
        throw error;
      }
    });
  } catch (error) {
    if (!isTransient(error)) throw error;
    void releaseIfHeld(db, held.callId).catch(() => undefined);
    throw new LedgerError('busy', `the account's credits could not be reached within ${options.waitMs} ms`);
  } finally {
    leave();
  }
}

/**
 * Captures (`succeeded`) or releases the call's hold and writes its call row, in one transaction,
 * retried. Returns the credits finally charged: the hold's when captured, 0 when released — also
 * when the reconciler released it first. `call.credits` is ignored: the outcome decides it.
 */
export async function settleCall(db: Knex, held: Held, call: CallRecord, succeeded: boolean, options: SettleOptions = {}): Promise<number> {
  let batchFailed = false;
  if (succeeded && options.batches) {
    try {
      const settled = await options.batches.capture(held, call);
      options.onBalance?.(settled.balance);
      return settled.credits;
    } catch {
      // Below, one by one: a capture finds the batch's if it did commit, and the call row is written once.
      batchFailed = true;
    }
  }
  if (held.credits === 0) {
    await recordCallReliably(db, { ...call, credits: 0 }, { earlierMayHaveCommitted: batchFailed });
    return 0;
  }
  return retryTransient(Date.now() + SETTLE_RETRY_MS, () => db.transaction((trx) => settleInTransaction(trx, held, call, succeeded)));
}

/** The settlement of `held` and the call row, in `trx`; the credits charged (what an earlier attempt or the reconciler did counts). */
async function settleInTransaction(trx: Knex.Transaction, held: Held, call: CallRecord, succeeded: boolean): Promise<number> {
  const mine = succeeded ? await writeCapture(trx, held) : await writeRelease(trx, held);
  const outcome = mine ? (succeeded ? 'capture' : 'release') : await findSettlement(trx, held.callId);
  if (outcome === undefined) throw new Error(`call "${held.callId}" was neither captured nor released`);
  const credits = outcome === 'capture' ? held.credits : 0;
  // An earlier attempt may have written the row already (its COMMIT's answer was lost).
  await trx('calls')
    .insert(callRow({ ...call, credits }))
    .onConflict('call_id')
    .ignore();
  return credits;
}

/**
 * Releases the hold of a call whose hold or capture has an unknown outcome (retried), with its call
 * row: how the hold ended up settled — a capture that did commit is found and reported, and its row
 * kept — or undefined when the call holds nothing (then only the row is written).
 */
export async function releaseInDoubt(db: Knex, held: Held, call: CallRecord): Promise<Settlement | undefined> {
  return retryTransient(Date.now() + IN_DOUBT_RETRY_MS, async () => {
    if (!(await findHold(db, held.callId))) {
      await db('calls')
        .insert(callRow({ ...call, credits: 0 }))
        .onConflict('call_id')
        .ignore();
      return undefined;
    }
    const credits = await db.transaction((trx) => settleInTransaction(trx, held, call, false));
    return credits > 0 ? 'capture' : 'release';
  });
}

/**
 * Gives back the credits of a captured call that answered an error (its capture was read back only
 * after the answer): a refund entry, and its call row saying so, in one transaction, retried; once
 * per call, however often it is asked.
 */
export async function refundCapture(db: Knex, held: Held, call: CallRecord): Promise<void> {
  await retryTransient(Date.now() + SETTLE_RETRY_MS, () =>
    db.transaction(async (trx) => {
      if (!(await writeRefund(trx, held))) return;
      // The capture wrote the call row with its credits; the row now says what the call answered.
      const updated = await trx('calls').where({ call_id: held.callId }).update({ status: call.status, credits: 0 });
      if (updated === 0) await trx('calls').insert(callRow({ ...call, credits: 0 }));
    }),
  );
}

/**
 * Writes the call's row, retrying transient failures; an earlier attempt that did commit counts.
 * With `batches`, first in the process's next batch of call rows; one by one when that fails.
 */
export async function recordCallReliably(
  db: Knex,
  call: CallRecord,
  options: { earlierMayHaveCommitted?: boolean; batches?: CallBatches; retryMs?: number } = {},
): Promise<void> {
  let earlierMayHaveCommitted = options.earlierMayHaveCommitted;
  if (options.batches) {
    try {
      return await options.batches.recordCall(call);
    } catch {
      earlierMayHaveCommitted = true;
    }
  }
  await retryTransient(Date.now() + (options.retryMs ?? SETTLE_RETRY_MS), async (attempt) => {
    try {
      await recordCall(db, call);
    } catch (error) {
      if ((earlierMayHaveCommitted || attempt > 1) && error instanceof LedgerError && error.code === 'conflict') return;
      throw error;
    }
  });
}

/** Releases the call's hold if it has one that is still open (retried); the number of credits given back. */
export async function releaseIfHeld(db: Knex, callId: string): Promise<number> {
  return retryTransient(Date.now() + SETTLE_RETRY_MS, async () => {
    const held = await findHold(db, callId);
    if (!held) return 0;
    return (await db.transaction((trx) => writeRelease(trx, held))) ? held.credits : 0;
  });
}

/**
 * The call path's ledger writes (CallCharge's writer): the first attempt of a hold, a capture and a
 * settled-nothing call row joins the account's group commit (call-batches.ts); when that batch fails,
 * the call goes on one by one (holdOneByOne, settleCall, recordCallReliably above), which first looks
 * for what the failed batch may have committed. Releases always go one by one.
 */
export class CallLedger implements ChargeWriter {
  constructor(
    private readonly db: Knex,
    private readonly batches: CallBatches,
    private readonly options: { gate?: LedgerGate; lease?: LeaseHolder } = {},
  ) {}

  hold(held: Held, waitMs: number): PendingHold {
    return holdAhead(this.db, held, { waitMs, gate: this.options.gate, lease: this.options.lease, batches: this.batches });
  }

  async capture(held: Held, call: CallRecord, options: { mayBeCaptured: boolean }): Promise<{ settlement: Settlement; balance?: number }> {
    let balance: number | undefined;
    const credits = await settleCall(this.db, held, call, true, {
      batches: options.mayBeCaptured ? undefined : this.batches,
      onBalance: (read) => (balance = read),
    });
    return { settlement: credits > 0 ? 'capture' : 'release', balance };
  }

  async release(held: Held, call: CallRecord): Promise<Settlement> {
    return (await settleCall(this.db, held, call, false)) > 0 ? 'capture' : 'release';
  }

  releaseInDoubt(held: Held, call: CallRecord): Promise<Settlement | undefined> {
    return releaseInDoubt(this.db, held, call);
  }

  refund(held: Held, call: CallRecord): Promise<void> {
    return refundCapture(this.db, held, call);
  }

  recordCall(call: CallRecord): Promise<void> {
    return recordCallReliably(this.db, call, { batches: this.batches, retryMs: CALL_ROW_RETRY_MS });
  }

  balance(accountId: string, since: number): Promise<number> {
    return this.batches.balance(accountId, since);
  }
}
