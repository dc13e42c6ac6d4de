/**
 * The charge of one tool call, owned by one object from the hold to the settlement. The call path
 * uses it in order:
 *
 *   const charge = new CallCharge(writer, held, options);
 *   const admission = charge.admit();          // the hold is written while the work starts
 *   …the work…
 *   const { credits } = await charge.succeed(row);   // the answer is 200, or succeed throws what it is
 *   // or, when anything failed:
 *   const answer = await charge.fail(error, row);    // the error to answer (a refusal wins)
 *
 * Its state says where the credits are:
 *
 *   none      nothing asked yet (a call stopped before its hold), or a free call
 *   holding   the hold is being written
 *   refused   the balance did not cover the price: 402, nothing held
 *   held      the price is out of the balance, the call not settled
 *   captured  charged, with its call row: the call answers 200, never an error
 *   owed      held, the work succeeded, the capture not written within CHARGE_WAIT_MS (the database
 *             out of reach): the call answers 200 (its credits are held, the money promised) and
 *             the capture is retried after the answer until it lands, then `captured`
 *   released  given back, with its call row (by this call, or by the reconciler first)
 *   refunded  captured, but read back only after the call had answered 503: a refund entry gave
 *             the credits back (the answer decides what the account pays), and the call row says so
 *   unknown   the hold was not written within CHARGE_WAIT_MS, or the database stayed out of reach
 *             and what committed could not be read back: 503, nothing charged; a hold that lands
 *             later is released after the answer, else by a lease sweep or the reconciler (see
 *             docs/ledger.md)
 *
 * It alone decides what a settlement outcome means for the answer: a capture whose outcome was lost
 * (its COMMIT's answer lost) is retried, and the retry finds it; a capture that cannot be written in
 * time is owed, never turned into a release.
 *
 * It alone bounds how long the answer waits for the ledger (CHARGE_WAIT_MS, `waitMs`), whatever the
 * database does: a hold not written within `waitMs` of `admit` answers 503 busy, not charged (a hold
 * that lands later is released after the answer, with the call row); a capture not written within
 * `waitMs` of `succeed` answers 200 and is owed; a release not written within `waitMs` answers the
 * call's error and goes on after the answer. Only the settlement waits for the database, never the
 * answer — except a capture that rides in its hold's batch already sent, with no answer yet or with
 * its answer lost: that outcome decides both, so it is waited for (until the database answers or the
 * connection is lost, then the hold's one-by-one attempts until the deadline).
 */
import { LATE, realClock, within } from '../clock.ts';
import { metrics } from '../metrics.ts';
import type { CallRecord } from './calls.ts';
import { LedgerError } from './errors.ts';
import type { Held, HoldResult, Settlement } from './holds.ts';

export type ChargeState = 'none' | 'holding' | 'refused' | 'held' | 'captured' | 'owed' | 'released' | 'refunded' | 'unknown';

/** The pause between the attempts of a settlement that goes on after the answer (each attempt retries transient failures within its own window first). */
export const SETTLE_AGAIN_MS = 1000;

/** The status written in the call row of a call whose settlement had to be found out after a lost capture and was a release. */
export const UNCONFIRMED_STATUS = 'temporarily_unavailable';

/** A hold being written while the call's work runs. */
export interface PendingHold {
  /** The hold's outcome; `captured` when the capture and the call row were written with it. */
  outcome: Promise<HoldResult & { captured: boolean }>;
  /** After the work succeeded: the capture and call row join the hold's own transaction if it has not started (true). */
  captureWithHold(call: CallRecord): boolean;
  /** Takes a joined capture out of the hold's transaction if that has not started: true when the hold goes alone, never carried it, or its batch failed committing nothing. */
  withdrawCapture(): boolean;
  /** Whether the hold's batch failed in a way that may have committed it all the same (a connection lost after the script was sent). */
  batchMayHaveCommitted(): boolean;
}

/**
 * The ledger writes of a call's charge (settlement.ts: the batched group commit, falling back to one
 * transaction per call). Each is retried on transient failures within its window, then rejects.
 */
export interface ChargeWriter {
  /** Starts holding the call's credits; LedgerError busy when they could not be reached within `waitMs`. */
  hold(held: Held, waitMs: number): PendingHold;
  /** Captures the hold and writes the call row, in one transaction; how the hold ended up settled (a release: the reconciler's, first). */
  capture(held: Held, call: CallRecord, options: { mayBeCaptured: boolean }): Promise<{ settlement: Settlement; balance?: number }>;
  /** Releases the hold and writes the call row, in one transaction; how the hold ended up settled (a capture that did commit is reported). */
  release(held: Held, call: CallRecord): Promise<Settlement>;
  /** As release, for a hold that may never have been written: undefined when there is none. */
  releaseInDoubt(held: Held, call: CallRecord): Promise<Settlement | undefined>;
  /** Gives back the credits of a captured call that answered an error, with its call row; once per call. */
  refund(held: Held, call: CallRecord): Promise<void>;
  /** Writes the row of a call that settles nothing (free, refused, stopped before its hold), after the answer. */
  recordCall(call: CallRecord): Promise<void>;
  /** The account's balance, read after `since` (performance.now()). */
  balance(accountId: string, since: number): Promise<number>;
}

/** What follows the calls of a process (InFlight): a shutdown waits for them and releases the holds it cuts off. */
export interface ChargeTracker {
  holding(held: Held): void;
  settled(callId: string): void;
  track<T>(work: Promise<T>): Promise<T>;
}

export interface CallChargeOptions {
  /** How long the hold may wait for the account (CHARGE_WAIT_MS). */
  waitMs: number;
  /** The error a refused call answers with, given the balance the account holds. */
  refusal(balance: number): Error;
  tracker: ChargeTracker;
  /** Called when a write could not be done and is left to the reconciler or lost (for the log). */
  onWriteFailed(error: unknown, what: string): void;
}

export interface Charged {
  /** Credits charged: the price, or 0 for a free call or a hold the reconciler released first. */
  credits: number;
  /** The balance after the call, when a write read it (or `succeed` was asked for it). */
  balance?: number;
}

export class CallCharge {
  private current: ChargeState = 'none';
  private pending: PendingHold | undefined;
  /** When the hold was asked for (performance.now(): a clock no wall-clock step moves). */
  private holdAskedAt = 0;
  /** The hold was not written within `waitMs`: the call answers busy, and the hold is settled after the answer. */
  private holdLate = false;

  constructor(
    private readonly writer: ChargeWriter,
    readonly held: Held,
    private readonly options: CallChargeOptions,
  ) {}

  get state(): ChargeState {
    return this.current;
  }

  /**
   * Starts holding the price (none for a free call) and returns the admission: resolved once the
   * credits are held, rejected with the refusal, or busy when they were not held within `waitMs`.
   * Nothing the work asks of the world may leave the process before it resolves.
   */
  admit(): Promise<void> | undefined {
    if (this.held.credits === 0) return undefined;
    this.current = 'holding';
    this.holdAskedAt = performance.now();
    this.pending = this.writer.hold(this.held, this.options.waitMs);
    this.options.tracker.holding(this.held);
    const admission = this.awaitHold().then(() => {
      if (this.holdError !== undefined) throw this.holdError;
    });
    admission.catch(() => undefined);
    return admission;
  }

  /**
   * The work succeeded: captures the hold with the call row (`call.credits` is ignored). Resolves
   * when the call answers 200, with the credits charged; rejects with what it answers otherwise
   * (the refusal, or busy when the credits could not be held in time), and the caller then calls
   * `fail` with it. Must be called as soon as the work ends, in the same turn: a quick call's capture
   * then joins its hold's transaction.
   */
  succeed(call: CallRecord, options: { balanceSince?: number } = {}): Promise<Charged> {
    if (!this.pending) return this.succeedFree(call, options);
    const capturedWithHold = !this.holdLate && this.pending.captureWithHold({ ...call, credits: this.held.credits });
    return this.settleSuccess(call, capturedWithHold);
  }

  /**
   * The call failed with `error` (or was cancelled): releases the hold with the call row, or writes
   * the row after the answer when nothing is held. Returns the error the call answers with: the
   * refusal when its credits were refused, whatever the work did; `error` otherwise. `row` makes the
   * call row for the status answered.
   */
  async fail(error: unknown, row: (answered: unknown) => CallRecord): Promise<unknown> {
    try {
      if (this.current === 'holding') await this.awaitHold();
      // The credits come first, whatever the work did: a refused call answers 402, one whose credits could not be reached 503.
      const answered = this.holdError ?? error;
      if (this.holdLate) {
        this.options.tracker.track(this.settleLateHold(row(answered)));
      } else if (this.current === 'held') {
        await this.answerWithin(
          this.untilLanded(() => this.writer.release(this.held, { ...row(answered), credits: 0 }), 'release'),
          this.options.waitMs,
        );
      } else if (this.current !== 'captured' && this.current !== 'released') {
        this.recordAfterAnswer(row(answered));
      }
      return answered;
    } finally {
      this.options.tracker.settled(this.held.callId);
    }
  }

  /** What the call answers when its hold was refused, or could not be written in time. */
  private holdError: unknown;

  /** A free call: its row is written after the answer; the answer only reads the balance, in a read shared with the account's calls that began after `balanceSince`. */
  private async succeedFree(call: CallRecord, options: { balanceSince?: number }): Promise<Charged> {
    this.recordAfterAnswer({ ...call, credits: 0 });
    if (options.balanceSince === undefined) return { credits: 0 };
    return { credits: 0, balance: await this.writer.balance(call.accountId, options.balanceSince).catch(() => undefined) };
  }

  private async settleSuccess(call: CallRecord, capturedWithHold: boolean): Promise<Charged> {
    try {
      const result = await this.awaitHold();
      if (this.current === 'refused') throw this.holdError;
      if (this.current === 'unknown') {
        // The hold's batch failed and its outcome could not be read back in time. If the capture
        // joined it and it may have committed, the call may be charged: find out, by releasing what may be held.
        if (this.holdLate || !capturedWithHold || !this.pending!.batchMayHaveCommitted()) throw this.holdError;
        return await this.confirm(call);
      }
      if (result?.ok && result.captured) {
        this.current = 'captured';
        return { credits: this.held.credits, balance: result.balance };
      }
      // A capture offered to a batch that failed may have committed with it: then it goes one by one, which finds it.
      const capturing = this.untilLanded(
        (attempt) => this.writer.capture(this.held, { ...call, credits: this.held.credits }, { mayBeCaptured: capturedWithHold || attempt > 1 }),
        'capture',
      );
      const captured = await within(capturing, this.options.waitMs);
      if (captured !== LATE) return { credits: captured.settlement === 'capture' ? this.held.credits : 0, balance: captured.balance };
      // The credits are held and the work is done: the call is owed its 200, and the capture goes on after the answer.
      this.current = 'owed';
      this.options.tracker.track(capturing);
      return { credits: this.held.credits };
    } finally {
      this.options.tracker.settled(this.held.callId);
    }
  }

  /**
   * After a hold whose batch carried the capture and lost its answer, the database then out of reach
   * until the hold's deadline: a release writes nothing if the capture committed, and says so. The
   * answer waits for it only until the hold's deadline; later, the call answers busy and the release
   * goes on after the answer, until it lands: a capture it then finds is refunded (refundIfCaptured).
   */
  private async confirm(call: CallRecord): Promise<Charged> {
    const unconfirmed = { ...call, status: UNCONFIRMED_STATUS, credits: 0 };
    const confirming = this.settle(() => this.writer.releaseInDoubt(this.held, unconfirmed), 'confirm');
    const settlement = await within(confirming, this.holdAskedAt + this.options.waitMs - performance.now());
    if (settlement === 'capture') return { credits: this.held.credits };
    if (settlement === LATE) this.options.tracker.track(this.refundIfCaptured(confirming, unconfirmed));
    throw new LedgerError('busy', 'the database did not confirm the charge; nothing was charged');
  }

  /**
   * After the call answered 503 with its capture in doubt: the confirmation goes on until it lands,
   * and a capture it finds committed is refunded — the answer decides what the account pays, so a
   * call that answered an error is never charged.
   */
  private async refundIfCaptured(confirming: Promise<Settlement | undefined>, call: CallRecord): Promise<void> {
    let settlement = await confirming;
    while (this.current === 'unknown') {
      await realClock.sleep(SETTLE_AGAIN_MS);
      settlement = await this.settle(() => this.writer.releaseInDoubt(this.held, call), 'confirm');
    }
    if (settlement !== 'capture') return;
    await this.retryUntilLanded(() => this.writer.refund(this.held, call), 'refund');
    this.current = 'refunded';
    metrics.creditsReturned(this.held.credits);
  }

  /** Waits for `work` at most `ms`, then leaves it running after the answer (followed by the tracker). */
  private async answerWithin(work: Promise<unknown>, ms: number): Promise<void> {
    if ((await within(work, ms)) === LATE) this.options.tracker.track(work);
  }

  /**
   * A settling write, retried until it lands (each attempt retries transient failures within its own
   * window first); its settlement becomes the state. Only a shutdown or a crash stops it: then the
   * hold is the lease's (leases.ts).
   */
  private async untilLanded<T extends Settlement | { settlement: Settlement }>(write: (attempt: number) => Promise<T>, what: string): Promise<T> {
    const written = await this.retryUntilLanded(write, what);
    const settlement: Settlement = typeof written === 'object' ? written.settlement : (written as Settlement);
    if (this.current === 'owed' && settlement === 'release') {
      this.options.onWriteFailed(
        new Error('the hold of a call answered 200 was released (a lease sweep or the hold timeout) before its capture landed; that call was not charged'),
        what,
      );
    }
    this.becomes(settlement);
    return written;
  }

  /** Runs `write` until it succeeds, SETTLE_AGAIN_MS apart; the first failure is logged. */
  private async retryUntilLanded<T>(write: (attempt: number) => Promise<T>, what: string): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write(attempt);
      } catch (error) {
        if (attempt === 1) this.options.onWriteFailed(error, `${what} (retried until it lands)`);
        await realClock.sleep(SETTLE_AGAIN_MS);
      }
    }
  }

  /** A hold that was not written in time: the call answered busy; whatever the hold did is undone, with the call row. */
  private async settleLateHold(call: CallRecord): Promise<void> {
    const result = await this.pending!.outcome.catch(() => undefined);
    if (result?.ok) {
      metrics.creditsDebited(this.held.credits);
      this.current = 'held';
      await this.untilLanded(() => this.writer.release(this.held, { ...call, credits: 0 }), 'release of a late hold');
    } else {
      // Refused, or never written (a hold left in doubt is released by the hold path or the reconciler).
      this.current = 'released';
      await this.writer.recordCall({ ...call, credits: 0 }).catch((error: unknown) => this.options.onWriteFailed(error, 'call row'));
    }
  }

  /** Runs a settling write; its settlement becomes the state (unknown when it failed, or found no hold). */
  private async settle(write: () => Promise<Settlement | undefined>, what: string): Promise<Settlement | undefined> {
    try {
      const settlement = await write();
      if (settlement) this.becomes(settlement);
      else this.current = 'released';
      return settlement;
    } catch (error) {
      this.current = 'unknown';
      this.options.onWriteFailed(error, what);
      return undefined;
    }
  }

  private becomes(settlement: Settlement): void {
    const wasHeld = this.current === 'held' || this.current === 'owed' || this.current === 'unknown';
    this.current = settlement === 'capture' ? 'captured' : 'released';
    if (settlement === 'release' && wasHeld) metrics.creditsReturned(this.held.credits);
  }

  /** The hold's outcome, once: refused, held (or captured with it), or unknown — or late, after `waitMs`. */
  private holdSettled: Promise<(HoldResult & { captured: boolean }) | undefined> | undefined;

  private awaitHold(): Promise<(HoldResult & { captured: boolean }) | undefined> {
    this.holdSettled ??= new Promise((resolve) => {
      const timer = setTimeout(() => {
        // A capture that rides in the hold's batch, already sent, is decided with it: its outcome is waited for.
        if (!this.pending!.withdrawCapture()) return;
        this.holdLate = true;
        this.current = 'unknown';
        this.holdError = new LedgerError('busy', `the account's credits could not be held within ${this.options.waitMs} ms`);
        resolve(undefined);
      }, this.options.waitMs);
      this.pending!.outcome.then(
        (result) => {
          clearTimeout(timer);
          if (this.holdLate) return;
          if (result.ok) {
            this.current = 'held';
            metrics.creditsDebited(this.held.credits);
          } else {
            this.current = 'refused';
            this.holdError = this.options.refusal(result.balance);
          }
          resolve(result);
        },
        (error: unknown) => {
          clearTimeout(timer);
          if (this.holdLate) return;
          this.current = 'unknown';
          this.holdError = error;
          // Busy: the hold path has already started releasing what may have been held.
          if (!(error instanceof LedgerError && error.code === 'busy')) this.options.onWriteFailed(error, 'hold');
          resolve(undefined);
        },
      );
    });
    return this.holdSettled;
  }

  private recordAfterAnswer(call: CallRecord): void {
    this.options.tracker.track(this.writer.recordCall(call).catch((error: unknown) => this.options.onWriteFailed(error, 'call row')));
  }
}
