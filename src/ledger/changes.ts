/**
 * The record of changes to an account's settings (keys and packs): who made each change — the
 * account owner, by the key they signed in or called with, or the operator through the admin CLI —
 * and when. Written in the same transaction as the change itself.
 */
import type { Knex } from 'knex';
import { toIso } from '../database/time.ts';

export type Actor = { kind: 'owner'; keyId: string } | { kind: 'operator' };

export const OPERATOR: Actor = { kind: 'operator' };

export type ChangeAction = 'key_created' | 'key_renamed' | 'key_deleted' | 'pack_enabled' | 'pack_disabled';

export interface AccountChange {
  action: ChangeAction;
  /** The key id or pack id changed. */
  subject: string;
  detail: string | null;
  actor: 'owner' | 'operator';
  /** The key the owner used; null for the operator. */
  actor_key_id: string | null;
  created_at: string;
}

export async function recordChange(
  trx: Knex | Knex.Transaction,
  change: { accountId: string; actor: Actor; action: ChangeAction; subject: string; detail?: string | null },
): Promise<void> {
  await trx('account_changes').insert({
    account_id: change.accountId,
    actor: change.actor.kind,
    actor_key_id: change.actor.kind === 'owner' ? change.actor.keyId : null,
    action: change.action,
    subject: change.subject,
    detail: change.detail ?? null,
    created_at: new Date(),
  });
}

/** The account's changes, newest first. */
export async function listChanges(db: Knex, accountId: string, limit = 50): Promise<AccountChange[]> {
  const rows: Array<{
    action: ChangeAction;
    subject: string;
    detail: string | null;
    actor: 'owner' | 'operator';
    actor_key_id: string | null;
    created_at: unknown;
  }> = await db('account_changes')
    .where({ account_id: accountId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(limit)
    .select('action', 'subject', 'detail', 'actor', 'actor_key_id', 'created_at');
  return rows.map((row) => ({ ...row, created_at: toIso(row.created_at) }));
}
