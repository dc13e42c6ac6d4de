/**
 * Credits held for work that finishes later (figures). A hold takes the price out of the balance
 * at once, so concurrent calls cannot spend it twice; a capture makes it final (an entry of
 * amount 0: the credits already left the balance); a release gives it back. Each is one ledger
 * entry under the holding call's id, and the unique (call_id, kind) index lets each happen at most
 * once, so the balance always equals the sum of the entries and a hold is charged at most once.
 */
import type { Knex } from 'knex';
import { readBalance } from './account-lookup.ts';
import { LedgerError, isUniqueViolation } from './errors.ts';
import { inTransaction } from './transaction.ts';
import { requireCallId, requireSafeInteger } from './validation.ts';

export type HoldResult = { ok: true; balance: number } | { ok: false; balance: number };

/** Holds `credits` under `callId` if the account has that many; in `trx` when given. */
export async function hold(db: Knex, input: { callId: string; accountId: string; credits: number }, trx?: Knex.Transaction): Promise<HoldResult> {
  const { callId, accountId, credits } = input;
  requireCallId(callId);
  requireSafeInteger(credits, 'credits', 0);
  const work = async (t: Knex.Transaction): Promise<HoldResult> => {
    const taken = await t('accounts').where({ id: accountId }).andWhere('balance', '>=', credits).decrement('balance', credits);
    const balance = await readBalance(t, accountId);
    if (taken === 0) return { ok: false, balance };
    try {
      await t('ledger_entries').insert({ account_id: accountId, call_id: callId, kind: 'hold', amount: -credits, created_at: new Date() });
    } catch (error) {
      if (isUniqueViolation(error)) throw new LedgerError('conflict', `call "${callId}" already holds credits`);
      throw error;
    }
    return { ok: true, balance };
  };
  return trx ? work(trx) : inTransaction(db, work);
}

async function heldAmount(t: Knex | Knex.Transaction, callId: string): Promise<{ accountId: string; amount: number } | undefined> {
  const row: { account_id: string; amount: unknown } | undefined = await t('ledger_entries').where({ call_id: callId, kind: 'hold' }).first('account_id', 'amount');
  return row ? { accountId: row.account_id, amount: -Number(row.amount) } : undefined;
}

async function settled(t: Knex | Knex.Transaction, callId: string): Promise<boolean> {
  const row = await t('ledger_entries').where({ call_id: callId }).whereIn('kind', ['capture', 'release']).first('id');
  return row !== undefined;
}

/**
 * Makes the hold of `callId` final, inside the caller's transaction (which should also record why).
 * Returns the credits captured, or 0 when there was no hold or it was already captured or released.
 */
export async function capture(trx: Knex.Transaction, callId: string): Promise<number> {
  requireCallId(callId);
  const held = await heldAmount(trx, callId);
  if (!held || (await settled(trx, callId))) return 0;
  try {
    await trx('ledger_entries').insert({ account_id: held.accountId, call_id: callId, kind: 'capture', amount: 0, created_at: new Date() });
  } catch (error) {
    if (isUniqueViolation(error)) return 0;
    throw error;
  }
  return held.amount;
}

/** Gives the held credits back, inside the caller's transaction; 0 when nothing was held or it is already settled. */
export async function release(trx: Knex.Transaction, callId: string): Promise<number> {
  requireCallId(callId);
  const held = await heldAmount(trx, callId);
  if (!held || (await settled(trx, callId))) return 0;
  try {
    await trx('ledger_entries').insert({ account_id: held.accountId, call_id: callId, kind: 'release', amount: held.amount, created_at: new Date() });
  } catch (error) {
    if (isUniqueViolation(error)) return 0;
    throw error;
  }
  await trx('accounts').where({ id: held.accountId }).increment('balance', held.amount);
  return held.amount;
}
