/**
 * Credits held for a call while its work runs (a tool call, a figure being rendered). A hold takes
 * the price out of the balance at once, so concurrent calls cannot spend it twice; a capture makes
 * it final (an entry of amount 0: the credits already left the balance); a release gives it back.
 * Each is one ledger entry under the holding call's id. The unique (call_id, kind) index lets a call
 * hold once, and the unique `settles` index lets a hold be captured or released once, never both:
 * the balance always equals the sum of the entries and a hold is charged at most once, however
 * many processes try.
 *
 * Lock order, on every engine: the account row first (the UPDATE of its balance), then the ledger
 * entries. A capture changes no balance and takes no account lock beyond its foreign key check.
 */
import type { Knex } from 'knex';
import { readBalance } from './account-lookup.ts';
import { LedgerError } from './errors.ts';
import { isUniqueViolation } from '../database/driver-errors.ts';
import { captureEntry, holdEntry, refundEntry, releaseEntry, type LedgerEntryRow } from './rows.ts';
import { inTransaction } from '../database/transaction.ts';
import { requireCallId, requireSafeInteger } from './validation.ts';

/** A refusal says what the account holds; a success may say what is left (a batched hold reads it). */
export type HoldResult = { ok: true; balance?: number } | { ok: false; balance: number };

/** A call's hold: whose credits and how many. */
export interface Held {
  callId: string;
  accountId: string;
  credits: number;
}

export type Settlement = 'capture' | 'release';

/**
 * Holds `credits` under `callId` if the account has that many, in `trx` when given. A refusal says
 * what the account holds; a success reads nothing more (it is on the hot path). A second hold of
 * the same call id is a conflict and changes nothing. `leaseId` names the process whose call holds
 * it (leases.ts); a hold without one (a queued figure's) is released only on HOLD_TIMEOUT_MS.
 */
export async function hold(db: Knex, input: Held & { leaseId?: string }, trx?: Knex.Transaction): Promise<HoldResult> {
  const { callId, accountId, credits } = input;
  requireCallId(callId);
  requireSafeInteger(credits, 'credits', 0);
  const work = async (t: Knex.Transaction): Promise<HoldResult> => {
    const taken = await t('accounts').where({ id: accountId }).andWhere('balance', '>=', credits).decrement('balance', credits);
    if (taken === 0) return { ok: false, balance: await readBalance(t, accountId) };
    try {
      await t('ledger_entries').insert(holdEntry(input, input.leaseId ?? null));
    } catch (error) {
      if (isUniqueViolation(error)) throw new LedgerError('conflict', `call "${callId}" already holds credits`);
      throw error;
    }
    return { ok: true };
  };
  return trx ? work(trx) : inTransaction(db, work);
}

/** The hold of `callId`, or undefined when the call holds nothing. Ledger entries never change, so any connection may read it. */
export async function findHold(db: Knex | Knex.Transaction, callId: string): Promise<Held | undefined> {
  const row: { account_id: string; amount: unknown } | undefined = await db('ledger_entries')
    .where({ call_id: callId, kind: 'hold' })
    .first('account_id', 'amount');
  return row ? { callId, accountId: row.account_id, credits: -Number(row.amount) } : undefined;
}

/** How the hold of `callId` was settled, or undefined while it is open (or there is none). */
export async function findSettlement(db: Knex | Knex.Transaction, callId: string): Promise<Settlement | undefined> {
  const row: { kind: Settlement } | undefined = await db('ledger_entries').where({ settles: callId }).first('kind');
  return row?.kind;
}

/** Writes the capture of `held` in `trx`; false (and nothing written) when the hold was already settled. */
export async function writeCapture(trx: Knex.Transaction, held: Held): Promise<boolean> {
  try {
    await trx('ledger_entries').insert(captureEntry(held));
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/**
 * Gives the credits of `held` back in `trx`: the account row first, then the entry. False (and the
 * balance as it was) when the hold was already settled; a failed statement does not end the
 * transaction on either engine, so the balance is put back in the same transaction.
 */
export function writeRelease(trx: Knex.Transaction, held: Held): Promise<boolean> {
  return giveBack(trx, held, releaseEntry(held));
}

/**
 * Gives back the credits of a captured call in `trx` (a refund entry: the call answered an error
 * before its capture could be read back). False (and the balance as it was) when the call was
 * refunded already: the unique (call_id, kind) index allows one refund per call.
 */
export function writeRefund(trx: Knex.Transaction, held: Held): Promise<boolean> {
  return giveBack(trx, held, refundEntry(held));
}

/** The account row first, then `entry`; when a unique index refuses the entry, the balance is put back in the same transaction. */
async function giveBack(trx: Knex.Transaction, held: Held, entry: LedgerEntryRow): Promise<boolean> {
  await trx('accounts').where({ id: held.accountId }).increment('balance', held.credits);
  try {
    await trx('ledger_entries').insert(entry);
    return true;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await trx('accounts').where({ id: held.accountId }).decrement('balance', held.credits);
    return false;
  }
}

/**
 * Makes the hold of `callId` final, inside the caller's transaction (which should also record why).
 * Returns the credits captured, or 0 when there was no hold or it was already captured or released.
 */
export async function capture(trx: Knex.Transaction, callId: string): Promise<number> {
  requireCallId(callId);
  const held = await findHold(trx, callId);
  if (!held || !(await writeCapture(trx, held))) return 0;
  return held.credits;
}

/** Gives the held credits back, inside the caller's transaction; 0 when nothing was held or it is already settled. */
export async function release(trx: Knex.Transaction, callId: string): Promise<number> {
  requireCallId(callId);
  const held = await findHold(trx, callId);
  if (!held || !(await writeRelease(trx, held))) return 0;
  return held.credits;
}
