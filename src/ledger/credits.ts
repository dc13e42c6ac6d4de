import type { Knex } from 'knex';
import { readBalance } from './account-lookup.ts';

// Calls are charged through holds (holds.ts, settlement.ts): held while they run, then captured or released.

/** The sum of the account's ledger entries; always equal to its balance. */
export async function ledgerSum(db: Knex, accountId: string): Promise<number> {
  const row: { total: unknown } | undefined = await db('ledger_entries').where({ account_id: accountId }).first(db.raw('coalesce(sum(amount), 0) as total'));
  return Number(row?.total ?? 0);
}

export async function getBalance(db: Knex, accountId: string): Promise<number> {
  return readBalance(db, accountId);
}
