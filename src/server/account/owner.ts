/**
 * What an account owner may do to their own account, whatever the transport (the REST endpoints
 * under /api/v1/account or the settings page): list, create, rename and delete keys, switch packs,
 * read usage and the record of changes. The same ledger functions as the operator's admin CLI, with
 * the owner (the key they used) recorded as the actor of every change.
 */
import type { Knex } from 'knex';
import { ApiError } from '../../errors.ts';
import {
  PACK_IDS,
  createKey,
  deleteKey,
  getAccount,
  isPackId,
  listChanges,
  listKeys,
  packSettings,
  renameKey,
  setPackEnabled,
  usage,
  usageSummary,
  type AccountChange,
  type KeyListing,
  type PackSettings,
  type UsageEntry,
  type UsageSummary,
} from '../../ledger/index.ts';
import type { RateLimits } from '../rate-limits.ts';

/** The account and the key that acts for it (the key of the call, or the one the session was opened with). */
export interface Owner {
  accountId: string;
  keyId: string;
}

/** Live keys an account may hold at once; enough for every machine and notebook, not for a runaway script. */
export const MAX_LIVE_KEYS = 20;
export const MAX_KEY_NAME_LENGTH = 100;
/** Longest usage period, in days. */
export const MAX_USAGE_DAYS = 366;
export const DEFAULT_USAGE_DAYS = 30;
export const RECENT_CALLS = 20;

export interface OwnerKey extends KeyListing {
  /** True for the key this request was made with (or the session opened with). */
  in_use: boolean;
}

export interface CreatedOwnerKey extends OwnerKey {
  /** The whole key: shown in this answer only, never again. */
  key: string;
  message: string;
}

const DAY_MS = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** A key name: optional, trimmed, 1 to 100 printable characters. */
function keyName(value: unknown, field = 'name'): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new ApiError('invalid_input', `${field}: must be a string`);
  const name = value.trim();
  // Counted as the published schema counts (characters, before trimming), so what it refuses is refused here too.
  if (name.length < 1 || [...value].length > MAX_KEY_NAME_LENGTH)
    throw new ApiError('invalid_input', `${field}: must be 1 to ${MAX_KEY_NAME_LENGTH} characters`);
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new ApiError('invalid_input', `${field}: must not contain control characters`);
  return name;
}

export async function ownerKeys(db: Knex, owner: Owner): Promise<OwnerKey[]> {
  return (await listKeys(db, owner.accountId)).map((key) => ({ ...key, in_use: key.id === owner.keyId }));
}

/**
 * A new key of the owner's account: at most KEY_CREATIONS_PER_HOUR a hour (429 past them, counted
 * before the key is made), at most MAX_LIVE_KEYS live at once.
 */
export async function createOwnerKey(db: Knex, owner: Owner, name: unknown, limits: Pick<RateLimits, 'consumeKeyCreation'>): Promise<CreatedOwnerKey> {
  const label = keyName(name);
  await limits.consumeKeyCreation(owner.accountId);
  const { key, ...listing } = await createKey(db, owner.accountId, label, { kind: 'owner', keyId: owner.keyId }, { maxLiveKeys: MAX_LIVE_KEYS });
  return {
    ...listing,
    in_use: false,
    key,
    message: 'Copy this key now: it is shown only in this answer and cannot be read again.',
  };
}

export async function renameOwnerKey(db: Knex, owner: Owner, keyId: string, name: unknown): Promise<OwnerKey> {
  const renamed = await renameKey(db, owner.accountId, keyId, keyName(name), { kind: 'owner', keyId: owner.keyId });
  return { ...renamed, in_use: renamed.id === owner.keyId };
}

export interface DeletedKey {
  id: string;
  deleted: true;
  /** True when the key deleted is the one this request was made with: it works no more. */
  was_in_use: boolean;
  message: string;
}

export async function deleteOwnerKey(db: Knex, owner: Owner, keyId: string): Promise<DeletedKey> {
  const deleted = await deleteKey(db, keyId, { accountId: owner.accountId, actor: { kind: 'owner', keyId: owner.keyId } });
  if (!deleted) throw new ApiError('not_found', `key_id: no key "${keyId}" in this account`);
  const wasInUse = keyId === owner.keyId;
  return {
    id: keyId,
    deleted: true,
    was_in_use: wasInUse,
    message: wasInUse
      ? 'Deleted the key this request was made with: it is refused from now on (on every server within a second). Use another key.'
      : 'Deleted: the key is refused from now on (on every server within a second).',
  };
}

export async function setOwnerPack(db: Knex, owner: Owner, pack: string, enabled: unknown): Promise<PackSettings> {
  if (!isPackId(pack)) throw new ApiError('not_found', `pack: no pack "${pack}"; the packs are ${PACK_IDS.join(', ')}`);
  if (typeof enabled !== 'boolean') throw new ApiError('invalid_input', 'enabled: must be true or false');
  await setPackEnabled(db, owner.accountId, pack, enabled, { kind: 'owner', keyId: owner.keyId });
  return packSettings(db, owner.accountId);
}

/** A YYYY-MM-DD date that exists, or undefined when not given. */
function day(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? Date.parse(`${text}T00:00:00.000Z`) : Number.NaN;
  if (Number.isNaN(ms) || isoDay(ms) !== text) throw new ApiError('invalid_input', `${field}: must be a date YYYY-MM-DD`);
  return ms;
}

export interface OwnerUsage extends UsageSummary {
  recent_calls: UsageEntry[];
}

/** Usage from `from` to `to` (UTC dates, both included); by default the last 30 days up to today. */
export async function ownerUsage(db: Knex, owner: Owner, query: { from?: unknown; to?: unknown }, now = Date.now()): Promise<OwnerUsage> {
  const to = day(query.to, 'to') ?? Date.parse(`${isoDay(now)}T00:00:00.000Z`);
  const from = day(query.from, 'from') ?? to - (DEFAULT_USAGE_DAYS - 1) * DAY_MS;
  if (from > to) throw new ApiError('invalid_input', 'from: must not be after to');
  if ((to - from) / DAY_MS + 1 > MAX_USAGE_DAYS) throw new ApiError('invalid_input', `from: the period is at most ${MAX_USAGE_DAYS} days`);
  const [summary, recent] = await Promise.all([
    usageSummary(db, owner.accountId, { from: isoDay(from), to: isoDay(to) }),
    usage(db, owner.accountId, { limit: RECENT_CALLS }),
  ]);
  return { ...summary, recent_calls: recent };
}

export async function ownerChanges(db: Knex, owner: Owner): Promise<AccountChange[]> {
  return listChanges(db, owner.accountId);
}

export async function ownerAccount(db: Knex, owner: Owner): Promise<{ id: string; name: string; balance: number; packs: PackSettings }> {
  const account = await getAccount(db, owner.accountId);
  if (!account) throw new ApiError('unauthorized', 'API key not valid');
  return { id: account.id, name: account.name, balance: account.credits, packs: account.packs };
}
