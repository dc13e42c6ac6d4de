import type { Knex } from 'knex';
import { LedgerError } from './errors.ts';
import { requireAccount } from './account-lookup.ts';
import { packs } from '../../generated/tools.ts';
import { OPERATOR, recordChange, type Actor } from './changes.ts';
import { inTransaction } from '../database/transaction.ts';

/** Discipline packs (the spec's `discipline` values), from tools.yaml. Every pack is on unless an account switched it off. */
export const PACK_IDS = packs.map((pack) => pack.id);
export type PackId = (typeof PACK_IDS)[number];
export type PackSettings = Record<PackId, boolean>;

export function isPackId(value: string): value is PackId {
  return (PACK_IDS as readonly string[]).includes(value);
}

function requirePackId(pack: string): asserts pack is PackId {
  if (!isPackId(pack)) {
    throw new LedgerError('invalid_input', `unknown pack "${pack}": expected one of ${PACK_IDS.join(', ')}`);
  }
}

/** Switches a pack on or off for the account; the change is recorded with its actor (the operator unless the owner made it). */
export async function setPackEnabled(db: Knex, accountId: string, pack: string, enabled: boolean, actor: Actor = OPERATOR): Promise<void> {
  requirePackId(pack);
  await requireAccount(db, accountId);
  await inTransaction(db, async (trx) => {
    await trx('account_packs').insert({ account_id: accountId, pack, enabled }).onConflict(['account_id', 'pack']).merge(['enabled']);
    await recordChange(trx, { accountId, actor, action: enabled ? 'pack_enabled' : 'pack_disabled', subject: pack });
  });
}

/** Every pack with its state for the account (no row means on). Does not check that the account exists. */
export async function packSettings(db: Knex, accountId: string): Promise<PackSettings> {
  const rows: { pack: string; enabled: unknown }[] = await db('account_packs').where({ account_id: accountId }).select('pack', 'enabled');
  const settings = Object.fromEntries(PACK_IDS.map((pack) => [pack, true])) as PackSettings;
  for (const row of rows) {
    if (isPackId(row.pack)) settings[row.pack] = Boolean(row.enabled);
  }
  return settings;
}

export async function enabledPacks(db: Knex, accountId: string): Promise<PackId[]> {
  const settings = await packSettings(db, accountId);
  return PACK_IDS.filter((pack) => settings[pack]);
}

/** One primary-key lookup; meant for the request path. */
export async function isPackEnabled(db: Knex, accountId: string, pack: string): Promise<boolean> {
  requirePackId(pack);
  const row: { enabled: unknown } | undefined = await db('account_packs').where({ account_id: accountId, pack }).first('enabled');
  return row === undefined || Boolean(row.enabled);
}
