/**
 * The rows the call path writes, for both of its writers (the one-at-a-time transactions of
 * holds.ts and settlement.ts, built by knex, and the batches of call-batches.ts, sent as plain SQL):
 * the column lists of ledger entries and call rows, and the one encoder of each kind of row.
 */
import type { CallRecord } from './calls.ts';
import type { Held } from './holds.ts';

export const LEDGER_ENTRY_COLUMNS = ['account_id', 'call_id', 'kind', 'amount', 'settles', 'lease_id', 'created_at'] as const;
export const CALL_COLUMNS = ['call_id', 'account_id', 'key_id', 'tool', 'status', 'credits', 'duration_ms', 'created_at'] as const;

export type LedgerEntryRow = Record<(typeof LEDGER_ENTRY_COLUMNS)[number], unknown>;
export type CallRow = Record<(typeof CALL_COLUMNS)[number], unknown>;

/** A hold takes the price out of the balance (the UPDATE beside it); `leaseId` names the process whose call holds it (leases.ts). */
export function holdEntry(held: Held, leaseId: string | null, at = new Date()): LedgerEntryRow {
  return { account_id: held.accountId, call_id: held.callId, kind: 'hold', amount: -held.credits, settles: null, lease_id: leaseId, created_at: at };
}

/** A capture makes the hold final: amount 0, the credits already left the balance. */
export function captureEntry(held: Held, at = new Date()): LedgerEntryRow {
  return { account_id: held.accountId, call_id: held.callId, kind: 'capture', amount: 0, settles: held.callId, lease_id: null, created_at: at };
}

/** A release gives the credits back (the UPDATE beside it). */
export function releaseEntry(held: Held, at = new Date()): LedgerEntryRow {
  return { account_id: held.accountId, call_id: held.callId, kind: 'release', amount: held.credits, settles: held.callId, lease_id: null, created_at: at };
}

/** A refund gives back the credits of a captured call that answered an error (charge.ts: a capture read back only after the answer). */
export function refundEntry(held: Held, at = new Date()): LedgerEntryRow {
  return { account_id: held.accountId, call_id: held.callId, kind: 'refund', amount: held.credits, settles: null, lease_id: null, created_at: at };
}

/** The `calls` row of a call (made at `at` unless the call says when). */
export function callRow(call: CallRecord, at = new Date()): CallRow {
  return {
    call_id: call.callId,
    account_id: call.accountId,
    key_id: call.keyId,
    tool: call.tool,
    status: call.status,
    credits: call.credits,
    duration_ms: call.durationMs,
    created_at: call.at ?? at,
  };
}

/** A row's values in its columns' order, for a plain INSERT. */
export function valuesOf<Column extends string>(columns: readonly Column[], row: Record<Column, unknown>): unknown[] {
  return columns.map((column) => row[column]);
}
