import type { Knex } from 'knex';
import { requireAccount } from './account-lookup.ts';
import { LedgerError, isForeignKeyViolation, isUniqueViolation } from './errors.ts';
import { toIso } from './time.ts';
import { requireCallId, requireSafeInteger } from './validation.ts';

export interface CallRecord {
  callId: string;
  accountId: string;
  keyId: string | null;
  tool: string;
  /** `ok`, or the error code the call answered with. */
  status: string;
  credits: number;
  durationMs: number;
  /** When the call was made; now by default. */
  at?: Date;
}

export interface UsageEntry {
  call_id: string;
  tool: string;
  status: string;
  credits: number;
  created_at: string;
}

const DEFAULT_USAGE_LIMIT = 100;

/** The `calls` row of a call. */
export function callRow(call: CallRecord): Record<string, unknown> {
  return {
    call_id: call.callId,
    account_id: call.accountId,
    key_id: call.keyId,
    tool: call.tool,
    status: call.status,
    credits: call.credits,
    duration_ms: call.durationMs,
    created_at: call.at ?? new Date(),
  };
}

export async function recordCall(db: Knex, call: CallRecord): Promise<void> {
  requireCallId(call.callId);
  requireSafeInteger(call.credits, 'credits', 0);
  requireSafeInteger(call.durationMs, 'durationMs', 0);
  try {
    await db('calls').insert(callRow(call));
  } catch (error) {
    if (isUniqueViolation(error)) throw new LedgerError('conflict', `call "${call.callId}" is already recorded`);
    if (isForeignKeyViolation(error)) throw new LedgerError('not_found', 'no such account or key');
    throw error;
  }
}

/** The account's calls, newest first (at most `limit`, default 100). Throws not_found for an unknown account. */
export async function usage(db: Knex, accountId: string, options: { limit?: number } = {}): Promise<UsageEntry[]> {
  const limit = options.limit ?? DEFAULT_USAGE_LIMIT;
  requireSafeInteger(limit, 'limit', 1);
  await requireAccount(db, accountId);
  const rows: { call_id: string; tool: string; status: string; credits: unknown; created_at: unknown }[] = await db(
    'calls',
  )
    .where({ account_id: accountId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'call_id', order: 'desc' },
    ])
    .limit(limit)
    .select('call_id', 'tool', 'status', 'credits', 'created_at');
  return rows.map((row) => ({
    call_id: row.call_id,
    tool: row.tool,
    status: row.status,
    credits: Number(row.credits),
    created_at: toIso(row.created_at),
  }));
}
