import type { Knex } from 'knex';
import { inTransaction } from '../database/transaction.ts';
import { LedgerError } from './errors.ts';
import { readBalance } from './account-lookup.ts';
import { requireName, requireSafeInteger } from './validation.ts';
import { newAccountId } from '../database/ids.ts';
import { packSettings, type PackSettings } from './packs.ts';

export interface AccountSummary {
  id: string;
  name: string;
  credits: number;
}

export interface Account extends AccountSummary {
  packs: PackSettings;
}

export async function createAccount(db: Knex, input: { name: string; credits: number }): Promise<AccountSummary> {
  const name = requireName(input.name, 'account name');
  requireSafeInteger(input.credits, 'credits', 0);
  const id = newAccountId();
  const now = new Date();
  await inTransaction(db, async (trx) => {
    await trx('accounts').insert({ id, name, balance: input.credits, created_at: now });
    if (input.credits > 0) {
      await trx('ledger_entries').insert({ account_id: id, kind: 'grant', amount: input.credits, created_at: now });
    }
  });
  return { id, name, credits: input.credits };
}

export async function getAccount(db: Knex, accountId: string): Promise<Account | null> {
  const row: { id: string; name: string; balance: unknown } | undefined = await db('accounts').where({ id: accountId }).first('id', 'name', 'balance');
  if (!row) return null;
  return { id: row.id, name: row.name, credits: Number(row.balance), packs: await packSettings(db, accountId) };
}

/** Grants `credits` more; adding 0 changes nothing. Throws not_found for an unknown account. */
export async function addCredits(db: Knex, accountId: string, credits: number): Promise<{ id: string; credits: number }> {
  requireSafeInteger(credits, 'credits', 0);
  if (credits === 0) return { id: accountId, credits: await readBalance(db, accountId) };
  const balance = await inTransaction(db, async (trx) => {
    const updated = await trx('accounts').where({ id: accountId }).increment('balance', credits);
    if (updated === 0) throw new LedgerError('not_found', `no account "${accountId}"`);
    await trx('ledger_entries').insert({ account_id: accountId, kind: 'grant', amount: credits, created_at: new Date() });
    return readBalance(trx, accountId);
  });
  return { id: accountId, credits: balance };
}
