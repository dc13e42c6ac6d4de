import { expect } from 'chai';
import type { Knex } from 'knex';
import { LedgerError, getAccount, ledgerSum } from '../../src/ledger/index.ts';

/** The account holds `credits`, and its cached balance equals the sum of its ledger entries. */
export async function expectBalance(db: Knex, accountId: string, credits: number): Promise<void> {
  const account = await getAccount(db, accountId);
  expect(account?.credits, 'cached balance').to.equal(credits);
  expect(await ledgerSum(db, accountId), 'sum of ledger entries').to.equal(credits);
}

export async function expectLedgerError(promise: Promise<unknown>, code: string): Promise<LedgerError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(LedgerError);
    expect((error as LedgerError).code).to.equal(code);
    return error as LedgerError;
  }
  expect.fail(`expected a LedgerError with code ${code}`);
}

export async function countEntries(db: Knex, accountId: string): Promise<number> {
  const [row] = await db('ledger_entries').where({ account_id: accountId }).count({ n: '*' });
  return Number(row?.n);
}

/** How many of the account's holds are neither captured nor released. */
export async function openHolds(db: Knex, accountId: string): Promise<number> {
  const [row] = await db('ledger_entries as h')
    .where({ 'h.account_id': accountId, 'h.kind': 'hold' })
    .whereNotExists(db('ledger_entries as s').select(db.raw('1')).whereRaw('s.settles = h.call_id'))
    .count({ n: '*' });
  return Number(row?.n);
}
