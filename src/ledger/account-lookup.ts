import type { Knex } from 'knex';
import { LedgerError } from './errors.ts';

/** The cached balance; throws not_found for an unknown account. */
export async function readBalance(db: Knex, accountId: string): Promise<number> {
  const row: { balance: unknown } | undefined = await db('accounts').where({ id: accountId }).first('balance');
  if (!row) throw new LedgerError('not_found', `no account "${accountId}"`);
  return Number(row.balance);
}

export async function requireAccount(db: Knex, accountId: string): Promise<void> {
  await readBalance(db, accountId);
}
