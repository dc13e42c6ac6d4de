/**
 * Reconciliation: the holds of a process whose lease expired (leases.ts) are released; and, as the
 * backstop for a process alive but stuck, a call's hold that nobody captured or released within the
 * hold timeout (HOLD_TIMEOUT_MS) is released whatever its lease. Every server process sweeps at start-up and then periodically; the unique
 * `settles` index makes each release happen once however many processes sweep together. Holds of
 * figures are left alone: a queued figure holds its price until it is rendered or fails.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { writeRelease, type Held } from './holds.ts';
import { deleteExpiredIdempotencyKeys } from './idempotency.ts';
import { retryTransient } from '../database/retry.ts';

const BATCH = 200;
/** Each periodic sweep looks this far behind the previous one's cutoff, for holds committed late. */
const OVERLAP_MS = 60_000;

/**
 * Releases the open call holds created before `olderThan` (and not before `since`, when given).
 * Returns how many this invocation released.
 */
export async function releaseExpiredHolds(db: Knex, options: { olderThan: Date; since?: Date }): Promise<number> {
  let released = 0;
  for (;;) {
    const query = db('ledger_entries as h')
      .where('h.kind', 'hold')
      .andWhere('h.created_at', '<', options.olderThan)
      .whereNotExists(db('ledger_entries as s').select(db.raw('1')).whereRaw('s.settles = h.call_id'))
      .whereNotExists(db('figures as f').select(db.raw('1')).whereRaw('f.call_id = h.call_id'))
      .orderBy('h.created_at')
      .limit(BATCH)
      .select('h.call_id', 'h.account_id', 'h.amount');
    if (options.since) query.andWhere('h.created_at', '>=', options.since);
    const rows: HoldRow[] = await query;
    released += await releaseHolds(db, rows);
    // A full batch of which others released some: look again until nothing open is left.
    if (rows.length < BATCH) return released;
  }
}

type HoldRow = { call_id: string; account_id: string; amount: unknown };

/** Releases each hold (once, whoever else releases it meanwhile); how many this call released. */
async function releaseHolds(db: Knex, rows: HoldRow[]): Promise<number> {
  let released = 0;
  for (const row of rows) {
    const held: Held = { callId: row.call_id, accountId: row.account_id, credits: -Number(row.amount) };
    if (await retryTransient(Date.now() + 10_000, () => db.transaction((trx) => writeRelease(trx, held)))) released += 1;
  }
  return released;
}

/**
 * Releases the open holds of the leases (leases.ts) that expired before `now`, then deletes those
 * leases: their processes are gone. Returns how many holds this invocation released.
 */
export async function releaseHoldsOfExpiredLeases(db: Knex, now: Date): Promise<number> {
  const expired: string[] = await db('leases').where('expires_at', '<', now).orderBy('expires_at').limit(BATCH).pluck('id');
  let released = 0;
  for (const leaseId of expired) {
    for (;;) {
      const rows: HoldRow[] = await db('ledger_entries as h')
        .where({ 'h.lease_id': leaseId, 'h.kind': 'hold' })
        .whereNotExists(db('ledger_entries as s').select(db.raw('1')).whereRaw('s.settles = h.call_id'))
        .limit(BATCH)
        .select('h.call_id', 'h.account_id', 'h.amount');
      released += await releaseHolds(db, rows);
      if (rows.length < BATCH) break;
    }
    await db('leases').where({ id: leaseId }).andWhere('expires_at', '<', now).del();
  }
  return released;
}

export interface ReconcilerOptions {
  /** Holds older than this are released. */
  holdTimeoutMs: number;
  /** Time between sweeps. */
  intervalMs: number;
  logger: Logger;
}

/** Sweeps at start and every `intervalMs`; the first sweep looks at all history, later ones only at what became old since. */
export class HoldReconciler {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private sweptUpTo: Date | undefined;

  constructor(
    private readonly db: Knex,
    private readonly options: ReconcilerOptions,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.sweep(), this.options.intervalMs);
    this.timer.unref();
    void this.sweep();
  }

  /** One sweep (joins the one under way, if any). */
  sweep(): Promise<void> {
    this.sweeping ??= (async () => {
      const olderThan = new Date(Date.now() - this.options.holdTimeoutMs);
      const since = this.sweptUpTo ? new Date(this.sweptUpTo.getTime() - OVERLAP_MS) : undefined;
      try {
        const released = await releaseExpiredHolds(this.db, { olderThan, since });
        this.sweptUpTo = olderThan;
        if (released > 0) this.options.logger.warn({ released }, 'released credits held by calls that were never settled');
        // Idempotency keys past their 24 hours go with the same sweep (a claim also ignores them).
        await deleteExpiredIdempotencyKeys(this.db);
      } catch (error) {
        this.options.logger.error({ err: error }, 'could not release expired holds');
      } finally {
        this.sweeping = undefined;
      }
    })();
    return this.sweeping;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }
}
