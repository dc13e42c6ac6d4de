/**
 * Whether the database server answers connections, as this process last found out, and what the
 * connection pool does while it does not.
 *
 * When a MySQL/MariaDB server is gone (killed, restarting, cut off), each new connection fails: at
 * once with ECONNREFUSED, or after the connect timeout with ETIMEDOUT. Knex's pool (tarn) then fails
 * its waiting callers one at a time, one per failed connect with a pause of about 200 ms between
 * them, so fifty waiting callers hear of the outage over ten seconds, and a caller with a deadline
 * of its own (a charged call's CHARGE_WAIT_MS, /readyz's second) misses it. Here, after one connect
 * fails in a way that says the server is out of reach, every other caller waiting for a connection
 * fails at once with that error, and so does every new one while one caller at a time (the probe)
 * keeps trying to connect; the first connection made again ends it. The callers' own retries
 * (retry.ts) treat the error as transient.
 */
import type { Knex } from 'knex';

/** Failures of a new connection that say the server is out of reach, not that it refused this one request. */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

export function isUnreachable(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && UNREACHABLE_CODES.has(code);
}

interface PendingAcquire {
  reject(error: unknown): void;
}

interface TarnPool {
  pendingAcquires: PendingAcquire[];
  numFree(): number;
  on(event: 'createSuccess', listener: () => void): void;
  on(event: 'createFail', listener: (eventId: number, error: unknown) => void): void;
}

interface PoolClient {
  pool?: TarnPool;
  acquireConnection(): Promise<unknown>;
}

export class DatabaseReachability {
  /** The failure that said the server is out of reach; undefined while it answers. */
  private failure: Error | undefined;
  private probing = false;

  /** False from a connect that failed as out of reach until a connection is made again. */
  get reachable(): boolean {
    return this.failure === undefined;
  }

  /** The error a caller hears while the server is out of reach: transient, with the code of the connect's failure. */
  private refusal(): Error {
    const failure = this.failure!;
    return Object.assign(new Error(`the database is not reachable: ${failure.message}`), { code: (failure as { code?: unknown }).code });
  }

  /** Watches the pool of `db`; afterwards a connection asked for while the server is out of reach is refused at once, except the probe's. */
  attach(db: Knex): void {
    const client = db.client as PoolClient;
    const pool = client.pool;
    if (!pool) return;
    pool.on('createSuccess', () => {
      this.failure = undefined;
    });
    pool.on('createFail', (_eventId, error) => {
      if (!isUnreachable(error)) return;
      this.failure = error instanceof Error ? error : new Error(String(error));
      // Tarn fails the first waiting caller itself; the others would each wait for another failed connect.
      for (const pending of pool.pendingAcquires.slice(1)) pending.reject(this.refusal());
    });
    const acquire = client.acquireConnection.bind(client);
    client.acquireConnection = async () => {
      // A free connection may still work (one made just as the server came back); the pool checks it before handing it out.
      if (this.reachable || pool.numFree() > 0) return acquire();
      if (this.probing) throw this.refusal();
      this.probing = true;
      try {
        return await acquire();
      } finally {
        this.probing = false;
      }
    };
  }
}

const reachabilities = new WeakMap<Knex, DatabaseReachability>();

/** Watches the connections of a MySQL/MariaDB pool (connection.ts does, as it opens one). */
export function watchReachability(db: Knex): DatabaseReachability {
  const reachability = new DatabaseReachability();
  reachability.attach(db);
  reachabilities.set(db, reachability);
  return reachability;
}

/** Whether the server of `db` is out of reach as far as this process knows (never for a pool that is not watched, such as SQLite's). */
export function databaseUnreachable(db: Knex): boolean {
  return reachabilities.get(db)?.reachable === false;
}
