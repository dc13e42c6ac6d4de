/**
 * Leases: whose calls hold credits, and whether that process is still alive. Each server process
 * takes a lease (a row of `leases`) at start-up and renews it every LEASE_RENEW_INTERVAL_MS; the
 * holds its calls take name it (ledger_entries.lease_id). When a lease has not been renewed for
 * LEASE_TIMEOUT_MS, its process crashed, was killed or lost the database: any other process — or the
 * same one after a restart, under a new lease — releases the open holds of that lease at its next
 * renewal, then deletes the lease. So a hold outlives its process by at most LEASE_TIMEOUT_MS +
 * LEASE_RENEW_INTERVAL_MS (15 s by default), plus the time its release takes.
 *
 * A process sweeps only right after its own renewal succeeded: one that cannot renew (cut off from
 * the database) may be the one whose lease others are about to sweep, and sweeps nothing. And after
 * its renewals failed, it sweeps again only once they have succeeded for LEASE_TIMEOUT_MS: when the
 * database server itself was away, every lease expired meanwhile, the live ones too, and their
 * owners need a renewal (every LEASE_RENEW_INTERVAL_MS) to show they are alive before anyone sweeps.
 * Otherwise the first process back would release the holds of calls another live process answered
 * 200 while the database was away and whose captures it is still retrying (charge.ts, `owed`).
 * What that does not cover: a process cut off alone (a network partition) for longer than
 * LEASE_TIMEOUT_MS while others reach the database; its owed captures then find their holds
 * released, and the log says so (docs/ledger.md). A process
 * that finds its own lease gone (swept while it was cut off) takes a new one; its calls whose holds
 * were released meanwhile are charged nothing (their capture finds the release). Leases compare
 * expiry times written by each process with the clock of the one sweeping: the hosts' clocks must
 * agree to well within the timeout (NTP). HOLD_TIMEOUT_MS (reconcile.ts) stays the backstop for a
 * process that is alive, renews its lease, but never settles a hold.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { newLeaseId } from '../database/ids.ts';
import { releaseHoldsOfExpiredLeases } from './reconcile.ts';

export interface LeaseOptions {
  /** LEASE_TIMEOUT_MS */
  timeoutMs: number;
  /** LEASE_RENEW_INTERVAL_MS */
  renewMs: number;
  logger: Logger;
}

/** What a hold needs to name its owner: the lease in force when it is written. */
export interface LeaseHolder {
  readonly id: string;
}

export class ProcessLease implements LeaseHolder {
  private current = newLeaseId();
  private timer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | undefined;
  /** Since when (performance.now()) every renewal has succeeded (always, until one fails); undefined after one failed, until the next succeeds. */
  private renewedSince: number | undefined = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Knex,
    private readonly options: LeaseOptions,
  ) {}

  get id(): string {
    return this.current;
  }

  /** Takes the lease, releases what expired leases left (this process's before a restart too), and renews from then on. */
  async start(): Promise<void> {
    await this.db('leases').insert({ id: this.current, started_at: new Date(), expires_at: this.expiry() });
    await this.sweep();
    this.timer = setInterval(() => void this.renewAndSweep(), this.options.renewMs);
    this.timer.unref();
  }

  /** One renewal, then a sweep of the leases of others that expired (joins the one under way). */
  renewAndSweep(): Promise<void> {
    this.renewing ??= (async () => {
      try {
        await this.renew();
      } catch (error) {
        this.renewedSince = undefined;
        this.options.logger.warn({ err: error, lease_id: this.current }, 'could not renew the lease of this process');
        return;
      }
      this.renewedSince ??= performance.now();
      // Back from an outage: the others' leases expired with this one's; their live owners renew within the timeout.
      if (performance.now() - this.renewedSince < this.options.timeoutMs) return;
      await this.sweep();
    })().finally(() => (this.renewing = undefined));
    return this.renewing;
  }

  /** Stops renewing and expires the lease now: the holds a stop could not release are any other process's to release at once. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.renewing;
    await this.db('leases').where({ id: this.current }).update({ expires_at: new Date() });
  }

  private expiry(): Date {
    return new Date(Date.now() + this.options.timeoutMs);
  }

  private async renew(): Promise<void> {
    const renewed = await this.db('leases').where({ id: this.current }).update({ expires_at: this.expiry() });
    if (renewed > 0) return;
    // Swept while this process was cut off: its holds until now were released; the next ones name a new lease.
    const lost = this.current;
    this.current = newLeaseId();
    await this.db('leases').insert({ id: this.current, started_at: new Date(), expires_at: this.expiry() });
    this.options.logger.warn({ lost_lease_id: lost, lease_id: this.current }, 'the lease of this process had expired and was swept; took a new one');
  }

  private async sweep(): Promise<void> {
    try {
      const released = await releaseHoldsOfExpiredLeases(this.db, new Date());
      if (released > 0) this.options.logger.warn({ released }, 'released credits held by calls of processes whose lease expired');
    } catch (error) {
      this.options.logger.error({ err: error }, 'could not release the holds of expired leases');
    }
  }
}
