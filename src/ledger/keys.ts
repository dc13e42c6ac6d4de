import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { requireAccount } from './account-lookup.ts';
import { OPERATOR, recordChange, type Actor } from './changes.ts';
import { LedgerError } from './errors.ts';
import { newKeyId, randomBase62 } from '../database/ids.ts';
import { toDate, toIso, toIsoOrNull } from '../database/time.ts';
import { inTransaction } from '../database/transaction.ts';
import { requireName } from './validation.ts';

export const KEY_PREFIX = 'sm_';
const KEY_RANDOM_LENGTH = 40;
/** Characters kept in clear so a human can tell keys apart: `sm_` and four more. */
const DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 4;
const KEY_SHAPE = /^sm_[0-9A-Za-z]{32,128}$/;
/** last_used_at is refreshed at most this often, so authentication does not write on every call. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface CreatedKey {
  id: string;
  key: string;
  prefix: string;
}

export interface KeyListing {
  id: string;
  name: string | null;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

export interface AuthenticatedKey {
  keyId: string;
  accountId: string;
  /** Packs switched off for the key's account (spec part 5, rule 7). */
  disabledPacks: string[];
}

export function hashKey(rawKey: string): string {
  return createHash('sha256').update(rawKey, 'utf8').digest('hex');
}

/**
 * Makes a key for the account and returns it with its listing. The returned `key` is the only copy:
 * only its hash is stored. The change is recorded with its actor (the operator unless the owner made
 * it). With `maxLiveKeys`, a key beyond that many live ones is refused (invalid_input), checked under
 * the account row's write lock so that concurrent creations cannot pass the count together.
 */
export async function createKey(
  db: Knex,
  accountId: string,
  name?: string | null,
  actor: Actor = OPERATOR,
  options: { maxLiveKeys?: number } = {},
): Promise<CreatedKey & KeyListing> {
  const label = name === undefined || name === null ? null : requireName(name, 'key name');
  await requireAccount(db, accountId);
  const id = newKeyId();
  const key = KEY_PREFIX + randomBase62(KEY_RANDOM_LENGTH);
  const prefix = key.slice(0, DISPLAY_PREFIX_LENGTH);
  const createdAt = new Date();
  await inTransaction(db, async (trx) => {
    if (options.maxLiveKeys !== undefined) {
      // A write that changes nothing, first: it takes the row lock on MySQL and the write lock on SQLite.
      await trx('accounts')
        .where({ id: accountId })
        .update({ balance: trx.raw('balance') });
      const live = await countLiveKeys(trx, accountId);
      if (live >= options.maxLiveKeys) {
        throw new LedgerError('invalid_input', `the account already holds ${live} keys, the most it may; delete one first`);
      }
    }
    await trx('api_keys').insert({ id, account_id: accountId, name: label, prefix, key_hash: hashKey(key), created_at: createdAt });
    await recordChange(trx, { accountId, actor, action: 'key_created', subject: id, detail: label });
  });
  return { id, name: label, prefix, created_at: toIso(createdAt), last_used_at: null, key };
}

async function countLiveKeys(db: Knex, accountId: string): Promise<number> {
  const row = await db('api_keys').where({ account_id: accountId }).whereNull('deleted_at').count({ live: '*' }).first();
  return Number(row?.live ?? 0);
}

/** Renames a live key of the account; not_found when the account has no such live key. */
export async function renameKey(db: Knex, accountId: string, keyId: string, name: string | null, actor: Actor = OPERATOR): Promise<KeyListing> {
  const label = name === null ? null : requireName(name, 'key name');
  return inTransaction(db, async (trx) => {
    const updated = await trx('api_keys').where({ id: keyId, account_id: accountId }).whereNull('deleted_at').update({ name: label });
    if (updated === 0) throw new LedgerError('not_found', `no key "${keyId}" in this account`);
    await recordChange(trx, { accountId, actor, action: 'key_renamed', subject: keyId, detail: label });
    const row: KeyRow = await trx('api_keys')
      .where({ id: keyId })
      .first(...KEY_LISTING_COLUMNS);
    return keyListing(row);
  });
}

type KeyRow = { id: string; name: string | null; prefix: string; created_at: unknown; last_used_at: unknown };
const KEY_LISTING_COLUMNS = ['id', 'name', 'prefix', 'created_at', 'last_used_at'] as const;

function keyListing(row: KeyRow): KeyListing {
  return { id: row.id, name: row.name, prefix: row.prefix, created_at: toIso(row.created_at), last_used_at: toIsoOrNull(row.last_used_at) };
}

/** The account's live keys, oldest first. */
export async function listKeys(db: Knex, accountId: string): Promise<KeyListing[]> {
  await requireAccount(db, accountId);
  const rows: KeyRow[] = await db('api_keys')
    .where({ account_id: accountId })
    .whereNull('deleted_at')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select(...KEY_LISTING_COLUMNS);
  return rows.map(keyListing);
}

/**
 * Revokes a key at once. False when there is no such live key (in `accountId`'s keys, when given:
 * an owner deletes only their own account's keys). The change is recorded with its actor.
 */
export async function deleteKey(db: Knex, keyId: string, options: { accountId?: string; actor?: Actor } = {}): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const live = trx('api_keys').where({ id: keyId }).whereNull('deleted_at');
    if (options.accountId !== undefined) live.andWhere({ account_id: options.accountId });
    const updated = await live.update({ deleted_at: new Date() });
    if (updated === 0) return false;
    const row: { account_id: string } = await trx('api_keys').where({ id: keyId }).first('account_id');
    await recordChange(trx, { accountId: row.account_id, actor: options.actor ?? OPERATOR, action: 'key_deleted', subject: keyId });
    return true;
  });
}

/**
 * The live key matching `rawKey` with its account's switched-off packs, or null. One query by the
 * unique hash index (joined with the account's pack switches), since it runs on every call.
 */
export async function authenticateKey(db: Knex, rawKey: string): Promise<AuthenticatedKey | null> {
  if (typeof rawKey !== 'string' || !KEY_SHAPE.test(rawKey)) return null;
  const rows: Array<{ id: string; account_id: string; last_used_at: unknown; disabled_pack: string | null }> = await db('api_keys as k')
    .leftJoin('account_packs as p', (join) => {
      join.on('p.account_id', '=', 'k.account_id').andOn('p.enabled', '=', db.raw('?', [0]));
    })
    .where('k.key_hash', hashKey(rawKey))
    .whereNull('k.deleted_at')
    .select('k.id', 'k.account_id', 'k.last_used_at', 'p.pack as disabled_pack');
  const row = rows[0];
  if (!row) return null;
  const now = new Date();
  if (row.last_used_at === null || now.getTime() - toDate(row.last_used_at).getTime() >= LAST_USED_RESOLUTION_MS) {
    await db('api_keys').where({ id: row.id }).update({ last_used_at: now });
  }
  const disabledPacks = rows.flatMap((entry) => (entry.disabled_pack === null ? [] : [entry.disabled_pack]));
  return { keyId: row.id, accountId: row.account_id, disabledPacks };
}
