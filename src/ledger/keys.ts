import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { requireAccount } from './account-lookup.ts';
import { newKeyId, randomBase62 } from './ids.ts';
import { toDate, toIso, toIsoOrNull } from './time.ts';
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

/** Makes a key for the account. The returned `key` is the only copy: only its hash is stored. */
export async function createKey(db: Knex, accountId: string, name?: string | null): Promise<CreatedKey> {
  const label = name === undefined || name === null ? null : requireName(name, 'key name');
  await requireAccount(db, accountId);
  const id = newKeyId();
  const key = KEY_PREFIX + randomBase62(KEY_RANDOM_LENGTH);
  const prefix = key.slice(0, DISPLAY_PREFIX_LENGTH);
  await db('api_keys').insert({
    id,
    account_id: accountId,
    name: label,
    prefix,
    key_hash: hashKey(key),
    created_at: new Date(),
  });
  return { id, key, prefix };
}

/** The account's live keys, oldest first. */
export async function listKeys(db: Knex, accountId: string): Promise<KeyListing[]> {
  await requireAccount(db, accountId);
  const rows: { id: string; name: string | null; prefix: string; created_at: unknown; last_used_at: unknown }[] =
    await db('api_keys')
      .where({ account_id: accountId })
      .whereNull('deleted_at')
      .orderBy([{ column: 'created_at' }, { column: 'id' }])
      .select('id', 'name', 'prefix', 'created_at', 'last_used_at');
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: toIso(row.created_at),
    last_used_at: toIsoOrNull(row.last_used_at),
  }));
}

/** Revokes a key at once. False when there is no such live key. */
export async function deleteKey(db: Knex, keyId: string): Promise<boolean> {
  const updated = await db('api_keys').where({ id: keyId }).whereNull('deleted_at').update({ deleted_at: new Date() });
  return updated > 0;
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
