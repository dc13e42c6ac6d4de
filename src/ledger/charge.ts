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
 *   released  given back, with its call row (by this call, or by the reconciler first)
 *   unknown   the database stayed out of reach and what committed could not be read back; the
 *             reconciler releases the hold if no capture committed (see docs/ledger.md)
 *
 * It alone decides what a settlement outcome means for the answer: a capture whose outcome was lost
 * (its COMMIT's answer lost, the database then out of reach for the capture's retry window) is
 * settled the other way, by a release that reports what did commit; when that finds the capture,
 * the call answers its 200.
 */
import { metrics } from '../metrics.ts';
import type { CallRecord } from './calls.ts';
import { LedgerError } from './errors.ts';
import type { Held, HoldResult, Settlement } from './holds.ts';

export type ChargeState = 'none' | 'holding' | 'refused' | 'held' | 'captured' | 'released' | 'unknown';

/** The status written in the call row of a call whose settlement had to be found out after a lost capture and was a release. */
export const UNCONFIRMED_STATUS = 'temporarily_unavailable';

/** A hold being written while the call's work runs. */
export interface PendingHold {
  /** The hold's outcome; `captured` when the capture and the call row were written with it. */
  outcome: Promise<HoldResult & { captured: boolean }>;
  /** After the work succeeded: the capture and call row join the hold's own transaction if it has not started (true). */
  captureWithHold(call: CallRecord): boolean;
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
   * credits are held, rejected with the refusal (or busy). Nothing the work asks of the world may
   * leave the process before it resolves.
   */
  admit(): Promise<void> | undefined {
    if (this.held.credits === 0) return undefined;
    this.current = 'holding';
    this.pending = this.writer.hold(this.held, this.options.waitMs);
    this.options.tracker.holding(this.held);
    const admission = this.pending.outcome.then((result) => {
      if (!result.ok) throw this.options.refusal(result.balance);
    });
    admission.catch(() => undefined);
    return admission;
  }

  /**
   * The work succeeded: captures the hold with the call row (`call.credits` is ignored). Resolves
   * when the call answers 200, with the credits charged; rejects with what it answers otherwise
   * (the refusal, or busy when the credits could not be reached or the capture not confirmed).
   * Must be called as soon as the work ends, in the same turn: a quick call's capture then joins
   * its hold's transaction.
   */
  succeed(call: CallRecord, options: { balanceSince?: number } = {}): Promise<Charged> {
    if (!this.pending) return this.succeedFree(call, options);
    const capturedWithHold = this.pending.captureWithHold({ ...call, credits: this.held.credits });
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
      if (this.current === 'held') {
        await this.settle(() => this.writer.release(this.held, { ...row(answered), credits: 0 }), 'release');
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
        if (!capturedWithHold || !this.pending!.batchMayHaveCommitted()) throw this.holdError;
        return await this.confirm(call);
      }
      if (result?.ok && result.captured) {
        this.current = 'captured';
        return { credits: this.held.credits, balance: result.balance };
      }
      try {
        // A capture offered to a batch that failed may have committed with it: then it goes one by one, which finds it.
        const { settlement, balance } = await this.writer.capture(this.held, { ...call, credits: this.held.credits }, { mayBeCaptured: capturedWithHold });
        this.becomes(settlement);
        return { credits: settlement === 'capture' ? this.held.credits : 0, balance };
      } catch {
        // The capture's outcome is unknown (its COMMIT's answer lost, the database out of reach since).
        return await this.confirm(call);
      }
    } finally {
      this.options.tracker.settled(this.held.callId);
    }
  }

  /** After a capture whose outcome is unknown: a release writes nothing if the capture committed, and says so. */
  private async confirm(call: CallRecord): Promise<Charged> {
    const settlement = await this.settle(() => this.writer.releaseInDoubt(this.held, { ...call, status: UNCONFIRMED_STATUS, credits: 0 }), 'confirm');
    if (settlement === 'capture') return { credits: this.held.credits };
    throw new LedgerError('busy', 'the database did not confirm the charge; nothing was charged');
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
    const wasHeld = this.current === 'held' || this.current === 'unknown';
    this.current = settlement === 'capture' ? 'captured' : 'released';
    if (settlement === 'release' && wasHeld) metrics.creditsReturned(this.held.credits);
  }

  /** The hold's outcome, once: refused, held (or captured with it), or unknown. */
  private holdSettled: Promise<(HoldResult & { captured: boolean }) | undefined> | undefined;

  private awaitHold(): Promise<(HoldResult & { captured: boolean }) | undefined> {
    this.holdSettled ??= this.pending!.outcome.then(
      (result) => {
        if (result.ok) {
          this.current = 'held';
          metrics.creditsDebited(this.held.credits);
        } else {
          this.current = 'refused';
          this.holdError = this.options.refusal(result.balance);
        }
        return result;
      },
      (error: unknown) => {
        this.current = 'unknown';
        this.holdError = error;
        // Busy: the hold path has already started releasing what may have been held.
        if (!(error instanceof LedgerError && error.code === 'busy')) this.options.onWriteFailed(error, 'hold');
        return undefined;
      },
    );
    return this.holdSettled;
  }

  private recordAfterAnswer(call: CallRecord): void {
    this.options.tracker.track(this.writer.recordCall(call).catch((error: unknown) => this.options.onWriteFailed(error, 'call row')));
  }
}
