/**
 * Where a server (and the admin CLI) keeps the upstream layer's shared state: in Redis when
 * REDIS_URL is set (src/upstream/shared-state/redis.ts), otherwise in the database, here (it uses the
 * ledger's statements, which the upstream layer does not import).
 *
 * In the database: one row per budget window
 * (`upstream_budget_windows`: its slots as JSON and the time until which it is marked spent), taken
 * and added to in one transaction that locks the rows (SQLite: BEGIN IMMEDIATE; MySQL: SELECT … FOR
 * UPDATE), so processes never admit more than the limit together; one row per source in
 * `upstream_source_status`. The tables are created here when missing, as the rate limit's are.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { engineOf, inScriptTransaction, runStatement } from '../database/statements.ts';
import { admits, countedSlots, type WindowCount } from '../upstream/budget-windows.ts';
import { RedisUpstreamState } from '../upstream/shared-state/redis.ts';
import type { BreakerChange, CountedWindow, SharedUpstreamState, SourceFailure, SourceStatus } from '../upstream/shared-state/types.ts';

export async function openSharedUpstreamState(db: Knex, redisUrl: string | undefined, logger?: Logger): Promise<SharedUpstreamState> {
  return redisUrl ? new RedisUpstreamState(redisUrl, logger) : DatabaseUpstreamState.open(db);
}

const WINDOWS = 'upstream_budget_windows';
const STATUSES = 'upstream_source_status';
const ATTEMPTS = 3;

interface WindowRow {
  window_key: string;
  slots: string;
  spent_until: number | string;
}

function countOf(row: WindowRow | undefined): WindowCount {
  if (!row) return { slots: new Map(), spentUntil: 0 };
  const slots = JSON.parse(row.slots) as Record<string, number>;
  return { slots: new Map(Object.entries(slots).map(([slot, amount]) => [Number(slot), amount])), spentUntil: Number(row.spent_until) };
}

const slotsJson = (slots: Map<number, number>): string => JSON.stringify(Object.fromEntries(slots));

async function createTables(db: Knex): Promise<void> {
  const create = async (name: string, build: (table: Knex.CreateTableBuilder) => void): Promise<void> => {
    if (await db.schema.hasTable(name)) return;
    try {
      await db.schema.createTable(name, build);
    } catch (error) {
      // Another process starting at the same moment created it first.
      if (!(await db.schema.hasTable(name))) throw error;
    }
  };
  await create(WINDOWS, (table) => {
    table.string('window_key', 191).primary();
    table.text('slots').notNullable();
    table.bigInteger('spent_until').notNullable().defaultTo(0);
  });
  await create(STATUSES, (table) => {
    table.string('source', 64).primary();
    table.text('breaker');
    table.text('last_failure');
  });
}

/** A lock wait or deadlock between processes is run again, a few times. */
function isContention(error: unknown): boolean {
  const { errno, code } = error as { errno?: number; code?: string };
  return errno === 1213 || errno === 1205 || code === 'SQLITE_BUSY';
}

export class DatabaseUpstreamState implements SharedUpstreamState {
  /** Window rows this process knows exist: they are created outside the counting transaction (no lock taken by an insert). */
  private readonly created = new Set<string>();

  private constructor(private readonly db: Knex) {}

  static async open(db: Knex): Promise<DatabaseUpstreamState> {
    await createTables(db);
    return new DatabaseUpstreamState(db);
  }

  private async ensureRows(windows: CountedWindow[]): Promise<void> {
    const insert = engineOf(this.db) === 'sqlite' ? 'INSERT OR IGNORE' : 'INSERT IGNORE';
    for (const window of windows) {
      if (this.created.has(window.key)) continue;
      await runStatement(this.db, { sql: `${insert} INTO ${WINDOWS} (window_key, slots, spent_until) VALUES (?, '{}', 0)`, params: [window.key] });
      this.created.add(window.key);
    }
  }

  /** Runs `change` on the windows' counts in one transaction holding their rows; `change` returns the counts to write, or undefined to write nothing. */
  private async locked<T>(windows: CountedWindow[], change: (counts: WindowCount[]) => { write?: WindowCount[]; result: T }): Promise<T> {
    await this.ensureRows(windows);
    const keys = [...new Set(windows.map((window) => window.key))].sort();
    const marks = keys.map(() => '?').join(', ');
    const forUpdate = engineOf(this.db) === 'mysql' ? ' FOR UPDATE' : '';
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await inScriptTransaction(this.db, async (script) => {
          const [rows] = (await script.run([
            { sql: `SELECT window_key, slots, spent_until FROM ${WINDOWS} WHERE window_key IN (${marks}) ORDER BY window_key${forUpdate}`, params: keys },
          ])) as unknown as [WindowRow[]];
          const counts = windows.map((window) => countOf(rows.find((row) => row.window_key === window.key)));
          const { write, result } = change(counts);
          if (write) {
            await script.run(
              windows.map((window, index) => ({
                sql: `UPDATE ${WINDOWS} SET slots = ?, spent_until = ? WHERE window_key = ?`,
                params: [slotsJson(write[index]!.slots), write[index]!.spentUntil, window.key],
              })),
              { commit: true },
            );
          }
          return result;
        });
      } catch (error) {
        if (attempt >= ATTEMPTS || !isContention(error)) throw error;
      }
    }
  }

  take(windows: CountedWindow[], cost: number, now: number): Promise<{ admitted: boolean; counts: WindowCount[] }> {
    return this.locked(windows, (stored) => {
      const counts = windows.map((window, index) => ({
        slots: new Map(countedSlots(window, stored[index]!.slots, now)),
        spentUntil: stored[index]!.spentUntil,
      }));
      const admitted = windows.every((window, index) => admits(window, counts[index]!, cost, now));
      if (!admitted || cost === 0) return { result: { admitted, counts } };
      windows.forEach((window, index) => {
        const slot = Math.floor(now / window.slotMs);
        counts[index]!.slots.set(slot, (counts[index]!.slots.get(slot) ?? 0) + cost);
      });
      return { write: counts, result: { admitted, counts } };
    });
  }

  markSpent(window: CountedWindow, until: number, now: number): Promise<void> {
    return this.locked([window], ([stored]) => {
      const count = { slots: new Map(countedSlots(window, stored!.slots, now)), spentUntil: Math.max(stored!.spentUntil, until) };
      return { write: [count], result: undefined };
    });
  }

  async read(windows: CountedWindow[], now: number): Promise<WindowCount[]> {
    if (windows.length === 0) return [];
    const rows = (await this.db(WINDOWS)
      .whereIn(
        'window_key',
        windows.map((window) => window.key),
      )
      .select('window_key', 'slots', 'spent_until')) as WindowRow[];
    return windows.map((window) => {
      const count = countOf(rows.find((row) => row.window_key === window.key));
      return { slots: new Map(countedSlots(window, count.slots, now)), spentUntil: count.spentUntil };
    });
  }

  async recordBreaker(source: string, change: BreakerChange): Promise<void> {
    await this.db(STATUSES)
      .insert({ source, breaker: JSON.stringify(change) })
      .onConflict('source')
      .merge(['breaker']);
  }

  async recordFailure(source: string, failure: SourceFailure): Promise<void> {
    await this.db(STATUSES)
      .insert({ source, last_failure: JSON.stringify(failure) })
      .onConflict('source')
      .merge(['last_failure']);
  }

  async readStatuses(): Promise<Record<string, SourceStatus>> {
    const rows = (await this.db(STATUSES).select('source', 'breaker', 'last_failure')) as Array<{
      source: string;
      breaker: string | null;
      last_failure: string | null;
    }>;
    return Object.fromEntries(
      rows.map((row) => [
        row.source,
        {
          ...(row.breaker ? { breaker: JSON.parse(row.breaker) as BreakerChange } : {}),
          ...(row.last_failure ? { lastFailure: JSON.parse(row.last_failure) as SourceFailure } : {}),
        },
      ]),
    );
  }

  async close(): Promise<void> {}
}
