/**
 * Idempotency keys, shared by every process through the database: the first request with an
 * (account, key) pair inserts a `running` row (the primary key lets exactly one process win), and
 * stores its answer in it when done; the others read the row. Rows count for IDEMPOTENCY_TTL_MS.
 */
import type { Knex } from 'knex';
import { isUniqueViolation } from '../database/driver-errors.ts';
import { toDate } from '../database/time.ts';

/** How long a key's answer is kept and replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A `running` row this old belongs to a process that died mid-call; the next request takes it over. */
export const IDEMPOTENCY_STALE_MS = 15 * 60 * 1000;

/** An HTTP answer as stored and replayed. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim = { kind: 'claimed' } | { kind: 'stored'; answer: StoredAnswer } | { kind: 'in_progress' } | { kind: 'reused' };

interface KeyRow {
  fingerprint: string;
  state: 'running' | 'done';
  status: number | null;
  headers: string | null;
  body: string | null;
  created_at: unknown;
}

const TABLE = 'idempotency_keys';

/** Claims the key for a request with `fingerprint`, or says what an earlier request with it left. */
export async function claimIdempotencyKey(db: Knex, accountId: string, key: string, fingerprint: string, now = new Date()): Promise<Claim> {
  const where = { account_id: accountId, idempotency_key: key };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      await db(TABLE).insert({ ...where, fingerprint, state: 'running', created_at: now });
      return { kind: 'claimed' };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const row: KeyRow | undefined = await db(TABLE).where(where).first('fingerprint', 'state', 'status', 'headers', 'body', 'created_at');
    if (!row) continue; // deleted meanwhile (expired or abandoned): try the insert again
    const age = now.getTime() - toDate(row.created_at).getTime();
    if (age >= IDEMPOTENCY_TTL_MS || (row.state === 'running' && age >= IDEMPOTENCY_STALE_MS)) {
      // Expired, or abandoned by a process that died: whoever deletes it first inserts the new row on the next round.
      const cutoff = new Date(now.getTime() - (row.state === 'running' ? IDEMPOTENCY_STALE_MS : IDEMPOTENCY_TTL_MS));
      await db(TABLE).where(where).andWhere('state', row.state).andWhere('created_at', '<=', cutoff).delete();
      continue;
    }
    if (row.fingerprint !== fingerprint) return { kind: 'reused' };
    if (row.state === 'running') return { kind: 'in_progress' };
    return { kind: 'stored', answer: { status: Number(row.status), headers: JSON.parse(row.headers ?? '{}') as Record<string, string>, body: row.body ?? '' } };
  }
  return { kind: 'in_progress' };
}

/** Stores the answer of the request that claimed the key. */
export async function storeIdempotentAnswer(db: Knex, accountId: string, key: string, answer: StoredAnswer): Promise<void> {
  await db(TABLE)
    .where({ account_id: accountId, idempotency_key: key, state: 'running' })
    .update({ state: 'done', status: answer.status, headers: JSON.stringify(answer.headers), body: answer.body });
}

/** Gives the key up (the answer is not one to replay), so a retry runs the request again. */
export async function releaseIdempotencyKey(db: Knex, accountId: string, key: string): Promise<void> {
  await db(TABLE).where({ account_id: accountId, idempotency_key: key, state: 'running' }).delete();
}

/** Deletes the keys older than IDEMPOTENCY_TTL_MS; the number deleted. */
export async function deleteExpiredIdempotencyKeys(db: Knex, now = new Date()): Promise<number> {
  return db(TABLE)
    .where('created_at', '<', new Date(now.getTime() - IDEMPOTENCY_TTL_MS))
    .delete();
}
