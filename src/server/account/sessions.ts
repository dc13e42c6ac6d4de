/**
 * Sign-ins to the account settings page. A session is opened by an API key and kept in the
 * database (any server process serves it): the browser holds only a random token in an HttpOnly
 * cookie, the database only its sha256, like API keys. A session lasts ACCOUNT_SESSION_MINUTES
 * and ends at once when the key it was opened with is deleted. Each session has its own CSRF
 * token, which the page sends in a header with every change.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import { toDate } from '../../database/time.ts';
import type { Owner } from './owner.ts';

export interface Session extends Owner {
  csrfToken: string;
  expiresAt: Date;
}

const hash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export async function openSession(db: Knex, owner: Owner, lifetimeMs: number, now = new Date()): Promise<{ token: string; session: Session }> {
  const token = randomBytes(32).toString('base64url');
  const session = { ...owner, csrfToken: randomBytes(32).toString('base64url'), expiresAt: new Date(now.getTime() + lifetimeMs) };
  // Expired sessions go when a new one comes, so the table holds only live ones and a few stale.
  await db('account_sessions').where('expires_at', '<', now).delete();
  await db('account_sessions').insert({
    token_hash: hash(token),
    account_id: owner.accountId,
    key_id: owner.keyId,
    csrf_token: session.csrfToken,
    created_at: now,
    expires_at: session.expiresAt,
  });
  return { token, session };
}

/** The live session of a cookie token: not expired, and its key not deleted. */
export async function findSession(db: Knex, token: string | undefined, now = new Date()): Promise<Session | undefined> {
  if (!token || !TOKEN_SHAPE.test(token)) return undefined;
  const row: { account_id: string; key_id: string; csrf_token: string; expires_at: unknown } | undefined = await db('account_sessions as s')
    .join('api_keys as k', 'k.id', 's.key_id')
    .where('s.token_hash', hash(token))
    .whereNull('k.deleted_at')
    .first('s.account_id', 's.key_id', 's.csrf_token', 's.expires_at');
  if (!row) return undefined;
  const expiresAt = toDate(row.expires_at);
  if (expiresAt.getTime() <= now.getTime()) return undefined;
  return { accountId: row.account_id, keyId: row.key_id, csrfToken: row.csrf_token, expiresAt };
}

export async function closeSession(db: Knex, token: string): Promise<void> {
  await db('account_sessions')
    .where({ token_hash: hash(token) })
    .delete();
}

/** Compares in constant time, so the token cannot be guessed a character at a time. */
export function csrfMatches(session: Session, presented: string | undefined): boolean {
  if (!presented) return false;
  const expected = Buffer.from(session.csrfToken);
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
