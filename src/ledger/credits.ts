import type { Knex } from 'knex';
import { readBalance } from './account-lookup.ts';
import { LedgerError, isUniqueViolation } from './errors.ts';
import { inTransaction } from './transaction.ts';
import { requireCallId, requireSafeInteger } from './validation.ts';

/** A refused debit says what the account holds; a successful one reads nothing more (it is on the hot path). */
export type DebitResult = { ok: true } | { ok: false; balance: number };

/**
 * Charges `credits` for a call if the account holds that many, in one transaction with its ledger
 * entry. The conditional UPDATE is the only check, so concurrent debits (any process, any engine)
 * cannot take the balance below zero. A call id can be debited once; a second debit is a conflict.
 */
export async function debit(
  db: Knex,
  input: { callId: string; accountId: string; credits: number },
): Promise<DebitResult> {
  const { callId, accountId, credits } = input;
  requireCallId(callId);
  requireSafeInteger(credits, 'credits', 0);
  if (credits === 0) return { ok: true };

  return inTransaction(db, async (trx) => {
    const charged = await trx('accounts')
      .where({ id: accountId })
      .andWhere('balance', '>=', credits)
      .decrement('balance', credits);
    if (charged === 0) return { ok: false, balance: await readBalance(trx, accountId) };
    try {
      await trx('ledger_entries').insert({
        account_id: accountId,
        call_id: callId,
        kind: 'debit',
        amount: -credits,
        created_at: new Date(),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new LedgerError('conflict', `call "${callId}" was already debited`);
      throw error;
    }
    return { ok: true };
  });
}

/**
 * Gives back what a call was debited, once: the unique (call_id, kind) index refuses a second
 * refund. Returns whether this invocation refunded; a call never debited (or debited 0) is a no-op.
 */
export async function refund(db: Knex, callId: string): Promise<boolean> {
  requireCallId(callId);
  // Ledger entries never change, so the debit can be read outside the transaction.
  const charge: { account_id: string; amount: unknown } | undefined = await db('ledger_entries')
    .where({ call_id: callId, kind: 'debit' })
    .first('account_id', 'amount');
  if (!charge) return false;
  const amount = -Number(charge.amount);
  try {
    await inTransaction(db, async (trx) => {
      await trx('ledger_entries').insert({
        account_id: charge.account_id,
        call_id: callId,
        kind: 'refund',
        amount,
        created_at: new Date(),
      });
      await trx('accounts').where({ id: charge.account_id }).increment('balance', amount);
    });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** The sum of the account's ledger entries; always equal to its balance. */
export async function ledgerSum(db: Knex, accountId: string): Promise<number> {
  const row: { total: unknown } | undefined = await db('ledger_entries')
    .where({ account_id: accountId })
    .first(db.raw('coalesce(sum(amount), 0) as total'));
  return Number(row?.total ?? 0);
}

export async function getBalance(db: Knex, accountId: string): Promise<number> {
  return readBalance(db, accountId);
}
