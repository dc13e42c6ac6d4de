/**
 * Which database failures are worth running again, and a loop that does so until a deadline.
 * Every write retried here is idempotent through a unique index (a call id is held, captured or
 * released at most once), so running it again after an unknown outcome is safe.
 */
import { realClock } from '../clock.ts';
import { isDeadlock } from './driver-errors.ts';

interface DriverError {
  code?: unknown;
  errno?: unknown;
  name?: unknown;
  message?: unknown;
}

/** MySQL/MariaDB error numbers that leave the database unchanged or the outcome unknown. */
const TRANSIENT_ERRNOS = new Set([
  1205, // ER_LOCK_WAIT_TIMEOUT
  1213, // ER_LOCK_DEADLOCK
  1053, // ER_SERVER_SHUTDOWN
  1317, // ER_QUERY_INTERRUPTED
  1927, // ER_CONNECTION_KILLED (MariaDB)
  1969, // ER_STATEMENT_TIMEOUT (MariaDB max_statement_time)
  3024, // ER_QUERY_TIMEOUT (MySQL max_execution_time)
  2006, // CR_SERVER_GONE_ERROR
  2013, // CR_SERVER_LOST
]);

const TRANSIENT_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_RECOVERY',
  'SQLITE_LOCKED',
]);

/** Lost connections that mysql2 reports without a code. */
const TRANSIENT_MESSAGE = /closed state|connection lost|connection was killed|server has gone away|Connection terminated/i;

/**
 * A failure after which the same statement may simply be run again: a deadlock or lock-wait
 * timeout, a statement timeout, a killed or lost connection, a busy SQLite file, or no pooled
 * connection free in time. After a lost connection a COMMIT may or may not have happened; the
 * callers find out by running the idempotent write again or by reading.
 */
export function isTransient(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errno, name, message } = error as DriverError;
  if (isDeadlock(error) || name === 'KnexTimeoutError') return true;
  if (typeof errno === 'number' && TRANSIENT_ERRNOS.has(errno)) return true;
  if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
  return typeof message === 'string' && TRANSIENT_MESSAGE.test(message);
}

/**
 * Runs `work` until it succeeds, fails with a non-transient error, or `deadline` (epoch ms) has
 * passed; then the last transient error is thrown. `attempt` counts from 1, so `work` knows
 * whether an earlier attempt may have committed.
 */
export async function retryTransient<T>(deadline: number, work: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt);
    } catch (error) {
      if (!isTransient(error) || Date.now() >= deadline) throw error;
      // Short, growing, jittered pauses: enough for a killed connection to be replaced or a lock to pass; never past the deadline.
      await realClock.sleep(Math.min(Math.min(20 * 2 ** Math.min(attempt, 5), 500) * (0.5 + Math.random() / 2), deadline - Date.now()));
    }
  }
}
