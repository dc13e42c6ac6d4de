import type { Knex } from 'knex';
import { requireAccount } from './account-lookup.ts';
import { LedgerError } from './errors.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../database/driver-errors.ts';
import { callRow } from './rows.ts';
import { toIso } from '../database/time.ts';
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
  const rows: { call_id: string; tool: string; status: string; credits: unknown; created_at: unknown }[] = await db('calls')
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

export interface UsageTotals {
  calls: number;
  credits: number;
}

export interface UsageSummary {
  /** First and last day of the period (UTC dates, both included). */
  from: string;
  to: string;
  total: UsageTotals;
  /** Every day of the period, oldest first, days without calls included. */
  by_day: Array<{ date: string } & UsageTotals>;
  /** Tools called in the period, most credits first. */
  by_tool: Array<{ tool: string } & UsageTotals>;
  /** Days and tools with calls, oldest first. */
  by_day_and_tool: Array<{ date: string; tool: string } & UsageTotals>;
}

const DAY_MS = 86_400_000;

/** Calls and credits per day and per tool from `from` to `to` (UTC dates YYYY-MM-DD, both included). */
export async function usageSummary(db: Knex, accountId: string, period: { from: string; to: string }): Promise<UsageSummary> {
  const start = Date.parse(`${period.from}T00:00:00.000Z`);
  const end = Date.parse(`${period.to}T00:00:00.000Z`) + DAY_MS;
  // Day of a call in UTC: DATETIME columns on MySQL, epoch milliseconds on SQLite (see src/database/migrations.ts).
  const day =
    db.client.dialect === 'mysql' ? db.raw('DATE_FORMAT(created_at, ?)', ['%Y-%m-%d']) : db.raw("strftime('%Y-%m-%d', created_at / 1000, 'unixepoch')");
  const rows: Array<{ day: string; tool: string; calls: unknown; credits: unknown }> = await db('calls')
    .where({ account_id: accountId })
    .andWhere('created_at', '>=', new Date(start))
    .andWhere('created_at', '<', new Date(end))
    .groupBy('day', 'tool')
    .orderBy([{ column: 'day' }, { column: 'tool' }])
    .select({ day, tool: 'tool' })
    .count({ calls: '*' })
    .sum({ credits: 'credits' });
  const byDayAndTool = rows.map((row) => ({ date: String(row.day), tool: row.tool, calls: Number(row.calls), credits: Number(row.credits ?? 0) }));
  const days = new Map<string, UsageTotals>();
  for (let at = start; at < end; at += DAY_MS) days.set(new Date(at).toISOString().slice(0, 10), { calls: 0, credits: 0 });
  const tools = new Map<string, UsageTotals>();
  const total = { calls: 0, credits: 0 };
  for (const entry of byDayAndTool) {
    for (const totals of [days.get(entry.date), tools.get(entry.tool) ?? tools.set(entry.tool, { calls: 0, credits: 0 }).get(entry.tool), total]) {
      if (!totals) continue;
      totals.calls += entry.calls;
      totals.credits += entry.credits;
    }
  }
  return {
    from: period.from,
    to: period.to,
    total,
    by_day: [...days].map(([date, totals]) => ({ date, ...totals })),
    by_tool: [...tools]
      .map(([tool, totals]) => ({ tool, ...totals }))
      .sort((a, b) => b.credits - a.credits || b.calls - a.calls || a.tool.localeCompare(b.tool)),
    by_day_and_tool: byDayAndTool,
  };
}
