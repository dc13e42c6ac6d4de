/**
 * Group commit (group-commit.ts) of the call path's ledger writes, per account: the holds of calls
 * that start and the captures and call-log rows of calls that end while one transaction on an
 * account is running are written together in the next one, which starts on the next turn of the
 * event loop so that the captures of quick tools, whose holds that transaction just admitted, join it.
 * A capture given to a hold whose batch has not started yet (holdAhead) is written with the hold:
 * a call answered from the cache is held, captured and logged in one transaction.
 *
 * One transaction, in the ledger's lock order: the account row first, then every ledger entry in
 * one INSERT, every call row in one INSERT, and the balance read back for X-Credits-Remaining. On
 * MySQL/MariaDB that is one round trip: one UPDATE takes the total of the batch's holds if the
 * balance covers it, and the holds' entries are written only if it did. When it does not, the rest of
 * the batch commits and its holds go to a second transaction, which locks and reads the account row
 * first and admits them in order while the credits last (on SQLite, always that way).
 *
 * A batch that fails for any reason commits nothing, or committed (in part) with its answer lost:
 * each of its calls then goes the per-call way (settlement.ts), which first looks for what an
 * earlier attempt wrote, so nothing is held or captured twice and nothing is lost. Releases always
 * go that way.
 *
 * Two lighter queues serve the calls that hold nothing: balance reads (one SELECT, no transaction,
 * shared by the calls of an account that ask together, and with those that began before the running
 * read started) and the call rows written after the answer (of free calls and failed calls: one
 * INSERT for the rows of every account that end within CALL_ROWS_GATHER_MS of each other or while
 * one runs).
 */
import type { Knex } from 'knex';
import type { CallRecord } from './calls.ts';
import { LedgerError } from './errors.ts';
import type { LedgerGate } from './gate.ts';
import { GroupCommit } from '../database/group-commit.ts';
import type { PendingHold } from './charge.ts';
import type { Held, HoldResult } from './holds.ts';
import { metrics } from '../metrics.ts';
import type { LeaseHolder } from './leases.ts';
import { CALL_COLUMNS, LEDGER_ENTRY_COLUMNS, callRow, captureEntry, holdEntry, valuesOf, type LedgerEntryRow } from './rows.ts';
import { engineOf, inScriptTransaction, runStatement, type Script, type Step } from '../database/statements.ts';

/** A batched hold's outcome, which always says the balance the batch read back. */
export type BatchedHold = HoldResult & { balance: number };

/** A hold submitted before the call's work runs, whose capture may still join the hold's own batch (CallCharge's PendingHold, less what only a failed batch can say). */
export type BatchedHoldAhead = Omit<PendingHold, 'batchMayHaveCommitted'>;

export interface BatchedSettlement {
  /** Credits captured: the hold's (0 for a free call). */
  credits: number;
  balance: number;
}

/** A hold given a `call` before its batch started is captured in that batch, with the call's row, if admitted. */
type Pending = { kind: 'hold'; held: Held; call?: CallRecord; started?: boolean } | { kind: 'settle'; held: Held; call: CallRecord };

export interface CallBatchOptions {
  /** Bounds this process's concurrent ledger transactions (one per account at a time already). */
  gate?: LedgerGate;
  /** How long a batch may wait for a place in the gate before its holds are refused as busy. */
  waitMs: number;
  /** How long the row of a call that holds nothing waits for others to share its INSERT (CALL_ROWS_GATHER_MS). */
  callRowsGatherMs?: number;
  /** The lease of this process, named by its holds (leases.ts). */
  lease?: LeaseHolder;
}

/**
 * The rows of free and failed calls are written after their answers, so no caller waits for them:
 * gathered for this long, under load one INSERT carries tens of rows instead of a few.
 */
export const CALL_ROWS_GATHER_MS = 10;

export class CallBatches {
  /** A call's capture after a quick tool joins the batch that follows the one that admitted its hold. */
  private readonly batches = new GroupCommit<Pending, BatchedHold | BatchedSettlement>((accountId, batch) => this.write(accountId, batch), {
    yieldBetweenBatches: true,
  });
  private readonly balanceReads = new GroupCommit<null, number>((accountId, asking) => this.readBalance(accountId, asking.length));
  /** The balance read running for each account, and when it started. */
  private readonly runningBalanceReads = new Map<string, { startedAt: number; reading: Promise<number> }>();
  private readonly callRows: GroupCommit<CallRecord, void>;
  private readonly forUpdate: string;
  /** MySQL/MariaDB: a batch whose holds the balance covers is one round trip (see writeBatch); SQLite has no round trips to save. */
  private readonly holdsInOneRoundTrip: boolean;

  constructor(
    private readonly db: Knex,
    private readonly options: CallBatchOptions,
  ) {
    this.forUpdate = engineOf(db) === 'mysql' ? ' FOR UPDATE' : '';
    this.holdsInOneRoundTrip = engineOf(db) === 'mysql';
    this.callRows = new GroupCommit((_, calls) => this.writeCallRows(calls), { gatherMs: options.callRowsGatherMs ?? CALL_ROWS_GATHER_MS });
  }

  /** Holds the call's credits in the account's next batch. */
  hold(held: Held): Promise<BatchedHold> {
    return this.batches.submit(held.accountId, { kind: 'hold', held }) as Promise<BatchedHold>;
  }

  /** Holds the call's credits in the account's next batch, which a quick call's capture may still join. */
  holdAhead(held: Held): BatchedHoldAhead {
    const pending: Pending & { kind: 'hold' } = { kind: 'hold', held };
    const outcome = (this.batches.submit(held.accountId, pending) as Promise<BatchedHold>).then((result) => ({
      ...result,
      captured: result.ok && pending.call !== undefined,
    }));
    return {
      outcome,
      captureWithHold(call) {
        if (pending.started) return false;
        pending.call = call;
        return true;
      },
      withdrawCapture() {
        if (pending.started) return pending.call === undefined;
        pending.call = undefined;
        return true;
      },
    };
  }

  /** Captures the call's hold (none for a free call) and writes its call row, in the account's next batch. */
  capture(held: Held, call: CallRecord): Promise<BatchedSettlement> {
    return this.batches.submit(held.accountId, { kind: 'settle', held, call }) as Promise<BatchedSettlement>;
  }

  /**
   * The account's balance, read after the call began (`calledAt`, from performance.now()): the read
   * already running for the account when that one started after the call did, else the next one.
   */
  balance(accountId: string, calledAt = performance.now()): Promise<number> {
    const running = this.runningBalanceReads.get(accountId);
    if (running && running.startedAt >= calledAt) return running.reading;
    return this.balanceReads.submit(accountId, null);
  }

  /** Writes a call row that holds nothing, in the process's next batch of call rows. A rejection leaves the row unwritten or written. */
  recordCall(call: CallRecord): Promise<void> {
    return this.callRows.submit(CALL_ROWS, call);
  }

  private async readBalance(accountId: string, asking: number): Promise<number[]> {
    const reading = runStatement(this.db, selectBalance(accountId)).then((rows) => {
      const row = (rows as Array<{ balance: unknown }>)[0];
      if (!row) throw new LedgerError('not_found', `no account "${accountId}"`);
      return Number(row.balance);
    });
    const running = { startedAt: performance.now(), reading };
    this.runningBalanceReads.set(accountId, running);
    try {
      const balance = await reading;
      return Array.from({ length: asking }, () => balance);
    } finally {
      if (this.runningBalanceReads.get(accountId) === running) this.runningBalanceReads.delete(accountId);
    }
  }

  private async writeCallRows(calls: CallRecord[]): Promise<void[]> {
    await runStatement(this.db, insertCalls(calls, new Date()));
    return calls.map(() => undefined);
  }

  private async write(accountId: string, batch: Pending[]): Promise<Array<BatchedHold | BatchedSettlement>> {
    // From here on a capture can no longer join its hold's batch (GroupCommit calls this as it takes the batch).
    for (const pending of batch) if (pending.kind === 'hold') pending.started = true;
    const leave = this.options.gate ? await this.options.gate.enter(accountId, Date.now() + this.options.waitMs) : () => undefined;
    try {
      metrics.ledgerTransaction();
      const results = await inScriptTransaction(this.db, (script) => this.writeBatch(script, accountId, batch, this.holdsInOneRoundTrip));
      const unheld = batch.flatMap((_, index) => (results[index] === undefined ? [index] : []));
      if (unheld.length > 0) {
        // The balance did not cover every hold of the batch: they are admitted in order while the credits last, in a transaction of their own.
        metrics.ledgerTransaction();
        const admitted = await inScriptTransaction(this.db, (script) =>
          this.writeBatch(
            script,
            accountId,
            unheld.map((index) => batch[index]!),
            false,
          ),
        );
        unheld.forEach((index, position) => (results[index] = admitted[position]));
      }
      return results as Array<BatchedHold | BatchedSettlement>;
    } finally {
      leave();
    }
  }

  /**
   * The batch's writes, its balance read back and the COMMIT. With `oneRoundTrip` (MySQL/MariaDB),
   * one round trip: the holds are written only if the balance covers all of them (one conditional
   * UPDATE), otherwise they are left out, undefined in the results, for the caller to admit in a
   * second transaction. Without it, a first round trip locks and reads the account row and the holds
   * are admitted in order while the credits last.
   *
   * A capture here writes its entry and call row without reading its hold first: a hold already
   * settled (released by the reconciler, or captured by an earlier attempt) makes the `settles`
   * unique index refuse the INSERT, which fails the whole batch, and each of its calls then goes one
   * by one (settleCall), which reads how its hold was settled. That index, not this code, is what
   * makes the credits this returns for a capture the ones it captured.
   */
  private async writeBatch(
    script: Script,
    accountId: string,
    batch: Pending[],
    oneRoundTrip: boolean,
  ): Promise<Array<BatchedHold | BatchedSettlement | undefined>> {
    const now = new Date();
    const holds = batch.filter((pending): pending is Pending & { kind: 'hold' } => pending.kind === 'hold');
    const total = holds.reduce((sum, pending) => sum + pending.held.credits, 0);
    const conditional = oneRoundTrip && total > 0;
    const admitted = new Set<Pending>(holds);
    const steps: Step[] = [];
    if (conditional) {
      // @all_held is a variable of this connection's session, set right after the UPDATE and read by
      // the INSERTs below: the script is sent as one multi-statement query on one connection
      // (statements.ts), so nothing runs between them, and the next batch on the connection sets it again.
      steps.push({ sql: 'UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?', params: [total, accountId, total] });
      steps.push({ sql: 'SET @all_held = ROW_COUNT()', params: [] });
    } else if (holds.length > 0) {
      // The row is locked until the COMMIT (FOR UPDATE on MySQL/MariaDB; on SQLite the whole file, since BEGIN IMMEDIATE), so the balance read is the one the UPDATE changes.
      const [rows] = await script.run([{ sql: `SELECT balance FROM accounts WHERE id = ?${this.forUpdate}`, params: [accountId] }]);
      const row = (rows as Array<{ balance: unknown }>)[0];
      if (!row) throw new LedgerError('not_found', `no account "${accountId}"`);
      let left = Number(row.balance);
      for (const pending of holds) {
        if (pending.held.credits > left) admitted.delete(pending);
        else left -= pending.held.credits;
      }
      const taken = holds.filter((pending) => admitted.has(pending)).reduce((sum, pending) => sum + pending.held.credits, 0);
      if (taken > 0) steps.push({ sql: 'UPDATE accounts SET balance = balance - ? WHERE id = ?', params: [taken, accountId] });
    }

    // What admitted holds write (their entries; with a capture joined, its entry and the call row too), and what the settled calls write.
    const heldEntries: LedgerEntryRow[] = [];
    const heldCalls: CallRecord[] = [];
    const captureEntries: LedgerEntryRow[] = [];
    const calls: CallRecord[] = [];
    for (const pending of batch) {
      const held = { ...pending.held, accountId };
      if (pending.kind === 'hold') {
        if (!admitted.has(pending)) continue;
        heldEntries.push(holdEntry(held, this.options.lease?.id ?? null, now));
        if (pending.call) {
          heldEntries.push(captureEntry(held, now));
          heldCalls.push({ ...pending.call, accountId, credits: held.credits });
        }
        continue;
      }
      if (held.credits > 0) captureEntries.push(captureEntry(held, now));
      calls.push({ ...pending.call, accountId, credits: held.credits });
    }
    if (conditional) {
      // Each row written only when the UPDATE above took the credits of all the holds.
      steps.push(onlyIfAllHeld(ENTRIES_INTO, LEDGER_ENTRY_COLUMNS, heldEntries));
      if (heldCalls.length > 0) {
        steps.push(
          onlyIfAllHeld(
            CALLS_INTO,
            CALL_COLUMNS,
            heldCalls.map((call) => callRow(call, now)),
          ),
        );
      }
    }
    const entries = conditional ? captureEntries : [...heldEntries, ...captureEntries];
    if (entries.length > 0) steps.push(insertRows(ENTRIES_INTO, LEDGER_ENTRY_COLUMNS, entries));
    const callsWritten = conditional ? calls : [...heldCalls, ...calls];
    if (callsWritten.length > 0) steps.push(insertCalls(callsWritten, now));
    steps.push(conditional ? { sql: 'SELECT balance, @all_held AS all_held FROM accounts WHERE id = ?', params: [accountId] } : selectBalance(accountId));
    const results = await script.run(steps, { commit: true });
    const row = (results.at(-1) as Array<{ balance: unknown; all_held?: unknown }>)[0];
    if (!row) throw new LedgerError('not_found', `no account "${accountId}"`);
    const balance = Number(row.balance);
    const allHeld = !conditional || Number(row.all_held) === 1;

    return batch.map((pending) =>
      pending.kind === 'settle' ? { credits: pending.held.credits, balance } : allHeld ? { ok: admitted.has(pending), balance } : undefined,
    );
  }
}

function selectBalance(accountId: string): Step {
  return { sql: 'SELECT balance FROM accounts WHERE id = ?', params: [accountId] };
}

const ENTRIES_INTO = 'ledger_entries';
const CALLS_INTO = 'calls';

/** One INSERT of the calls' rows. */
function insertCalls(calls: CallRecord[], now: Date): Step {
  return insertRows(
    CALLS_INTO,
    CALL_COLUMNS,
    calls.map((call) => callRow(call, now)),
  );
}

/** One INSERT of `rows` into `table`, in `columns`' order. */
function insertRows<Column extends string>(table: string, columns: readonly Column[], rows: Array<Record<Column, unknown>>): Step {
  return {
    sql: `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${rowsOf(rows.length, columns.length)}`,
    params: rows.flatMap((row) => valuesOf(columns, row)),
  };
}

/** MySQL/MariaDB: one INSERT of `rows` into `table`, each written only when `@all_held` is 1 (see writeBatch). */
function onlyIfAllHeld<Column extends string>(table: string, columns: readonly Column[], rows: Array<Record<Column, unknown>>): Step {
  const key = `${table} ${rows.length}`;
  let sql = conditionalInserts.get(key);
  if (sql === undefined) {
    const select = `SELECT ${columns.map(() => '?').join(', ')} FROM DUAL WHERE @all_held = 1`;
    conditionalInserts.set(key, (sql = `INSERT INTO ${table} (${columns.join(', ')}) ${rows.map(() => select).join(' UNION ALL ')}`));
  }
  return { sql, params: rows.flatMap((row) => valuesOf(columns, row)) };
}

/** The text of each conditional INSERT, by table and shape (at most MAX_BATCH × 2 rows: a few hundred texts). */
const conditionalInserts = new Map<string, string>();

/** The one queue key of call rows: they are written together whatever their account. */
const CALL_ROWS = 'calls';

const placeholders = new Map<string, string>();

/** `(?, ?, …), (?, ?, …)`: placeholders for `rows` rows of `columns` values (the same text each time, so prepared once). */
function rowsOf(rows: number, columns: number): string {
  const key = `${rows}x${columns}`;
  let text = placeholders.get(key);
  if (text === undefined) {
    const row = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
    placeholders.set(key, (text = Array.from({ length: rows }, () => row).join(', ')));
  }
  return text;
}
