import type { Knex } from 'knex';
import { isDeadlock } from './driver-errors.ts';

const MAX_ATTEMPTS = 3;

/**
 * Runs `work` in a transaction, running it again (at most three times in all) when InnoDB picks it
 * as a deadlock victim: the rolled-back attempt left nothing behind.
 *
 * On SQLite, let the first statement of `work` be a write: a deferred transaction that reads first
 * and writes later fails with SQLITE_BUSY instead of waiting when another process wrote meanwhile.
 */
export async function inTransaction<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isDeadlock(error)) throw error;
    }
  }
}
