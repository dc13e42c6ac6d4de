/**
 * Idempotent retries of tool calls (IETF draft "The Idempotency-Key HTTP Header Field"): a POST with
 * `Idempotency-Key` runs once per key and account for 24 hours; a repeat with the same tool and
 * body gets the stored answer again (same call_id, status and body; not charged again), with
 * `Idempotent-Replayed: true`. The same key with another body is 422, a repeat while the first is
 * still running is 409. The keys live in the database (src/ledger/idempotency.ts), so every process
 * sees them.
 *
 * Stored and replayed: successes, and the client errors a retry would meet again (400 arguments,
 * 402 credits, 403 pack switched off, 406 format), an error's message cut to keep its answer within
 * MAX_STORED_ERROR_BYTES. Never stored: 429 and every 5xx (a retry after a
 * failure really runs again); 401, 404 and 413 are answered before the key is looked at.
 */
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { Knex } from 'knex';
import { stringify } from 'safe-stable-stringify';
import { ApiError } from '../errors.ts';
import { claimIdempotencyKey, releaseIdempotencyKey, storeIdempotentAnswer, type StoredAnswer } from '../ledger/index.ts';
import { errorBody, toApiError } from './error-middleware.ts';

export type { StoredAnswer };

export const MAX_KEY_LENGTH = 255;
const STORED_ERROR_STATUSES = new Set([400, 402, 403, 406]);

/** The request's Idempotency-Key, or undefined when it sends none; 400 when it is empty or too long. */
export function idempotencyKeyOf(request: Request): string | undefined {
  const key = request.get('idempotency-key');
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw new ApiError('invalid_input', `Idempotency-Key: must be 1 to ${MAX_KEY_LENGTH} characters, got ${key.length}`);
  }
  return key;
}

/** sha256 of the tool and its body in canonical JSON (keys sorted), so key order and spacing do not matter. */
export function requestFingerprint(tool: string, body: unknown): string {
  return createHash('sha256')
    .update(`${tool}\n${stringify(body)}`)
    .digest('hex');
}

/**
 * Bytes of a stored error answer. Error messages are bounded where they are made; this bound holds
 * whatever a message says, so a free request cannot store much for a day. A longer message is
 * stored (and replayed) cut, with the same status and code.
 */
export const MAX_STORED_ERROR_BYTES = 8 * 1024;

/** The JSON answer of an error, as the error middleware sends it. */
export function errorAnswer(error: ApiError): StoredAnswer {
  return { status: error.status, headers: { 'Content-Type': 'application/json; charset=utf-8', ...error.headers }, body: JSON.stringify(errorBody(error)) };
}

/** The answer of an error as it is stored: at most MAX_STORED_ERROR_BYTES, the message cut when longer. */
export function storedErrorAnswer(error: ApiError): StoredAnswer {
  const answer = errorAnswer(error);
  if (Buffer.byteLength(answer.body) <= MAX_STORED_ERROR_BYTES) return answer;
  // A UTF-16 unit takes at most 6 bytes in JSON (\uXXXX); 256 bytes are left for the code and the rest of the body.
  const kept = Math.floor((MAX_STORED_ERROR_BYTES - 256) / 6);
  return errorAnswer(new ApiError(error.code, `${error.message.slice(0, kept)}… (cut)`, error.headers));
}

/**
 * `produce`'s answer, run at most once per (account, key): the stored answer of an earlier request
 * with the same fingerprint, or 422/409 for a reused or still running key.
 */
export async function answerOnce(db: Knex, accountId: string, key: string, fingerprint: string, produce: () => Promise<StoredAnswer>): Promise<StoredAnswer> {
  const claim = await claimIdempotencyKey(db, accountId, key, fingerprint);
  if (claim.kind === 'reused') {
    throw new ApiError('idempotency_key_reused', 'Idempotency-Key: this key was used with a different request in the last 24 hours; use a new key');
  }
  if (claim.kind === 'in_progress') {
    throw new ApiError('idempotency_in_progress', 'Idempotency-Key: the first request with this key is still running; retry shortly to get its answer', {
      'Retry-After': '1',
    });
  }
  if (claim.kind === 'stored') return { ...claim.answer, headers: { ...claim.answer.headers, 'Idempotent-Replayed': 'true' } };

  let answer: StoredAnswer;
  try {
    answer = await produce();
  } catch (error) {
    const apiError = toApiError(error);
    const keep = STORED_ERROR_STATUSES.has(apiError.status)
      ? storeIdempotentAnswer(db, accountId, key, storedErrorAnswer(apiError))
      : releaseIdempotencyKey(db, accountId, key);
    // The call's own answer goes out even when the database is out of reach; its row then goes stale.
    await keep.catch(() => undefined);
    throw error;
  }
  await storeIdempotentAnswer(db, accountId, key, answer).catch(() => undefined);
  return answer;
}
