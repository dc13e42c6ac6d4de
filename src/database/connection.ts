import { mkdirSync } from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import type BetterSqlite3 from 'better-sqlite3';
import { realClock } from '../clock.ts';
import { watchReachability } from './reachability.ts';
import { migrationSource } from './migrations.ts';
import { startWalCheckpoints, WAL_SAFETY_NET_PAGES, type WalCheckpointOptions, type WalCheckpoints } from './wal-checkpoints.ts';

export class DatabaseUrlError extends Error {}

/**
 * Bounded waits, so one hot or locked account, or a stuck statement, cannot hold the server:
 * a pooled connection is waited for at most POOL_ACQUIRE_TIMEOUT_MS, a row lock at most
 * LOCK_WAIT_TIMEOUT_S (MySQL/MariaDB `innodb_lock_wait_timeout`), a statement runs at most
 * STATEMENT_TIMEOUT_S (MariaDB `max_statement_time`; MySQL `max_execution_time`, which covers
 * SELECTs only), and a locked SQLite file is waited for at most SQLITE_BUSY_TIMEOUT_MS. The ledger
 * retries what these cut short (retry.ts).
 */
export const POOL_ACQUIRE_TIMEOUT_MS = 5000;
export const LOCK_WAIT_TIMEOUT_S = 2;
export const STATEMENT_TIMEOUT_S = 30;
export const SQLITE_BUSY_TIMEOUT_MS = 250;
/**
 * How long a new MySQL/MariaDB connection may take to open. While the server is out of reach only
 * one caller at a time waits for a connect (reachability.ts); 1 s was too short for a busy host
 * opening many connections at start-up.
 */
export const CONNECT_TIMEOUT_MS = 5000;
const POOL_SIZE = 10;

/**
 * Knex's warnings, less the migration-lock ones (migrateToLatest waits and retries instead) and the
 * refusals of callers while the database is out of reach (reachability.ts: one per call, the probe's
 * failed connects say it).
 */
const knexLog = {
  warn(message: string): void {
    if (!/already locked|migrate:unlock|the database is not reachable/.test(message)) console.warn(`knex: ${message}`);
  },
};

export interface DatabaseOptions {
  /**
   * SQLite files only: checkpoint the write-ahead log in a thread of its own (wal-checkpoints.ts)
   * instead of inside the commits of this pool. For the server, whose request loop must not wait on
   * the disk; short-lived programs (the admin CLI, tests) keep SQLite's automatic checkpoints.
   */
  walCheckpointThread?: WalCheckpointOptions;
}

/**
 * Opens a connection pool for `mysql://user:pass@host:port/db` (mysql2) or `sqlite:<path>`
 * (better-sqlite3; the parent folder is created). Close it with `db.destroy()`.
 */
export function openDatabase(databaseUrl: string, options: DatabaseOptions = {}): Knex {
  if (databaseUrl.startsWith('mysql://')) return openMysql(databaseUrl);
  if (databaseUrl.startsWith('sqlite:')) return openSqlite(databaseUrl, options.walCheckpointThread);
  throw new DatabaseUrlError(`unsupported DATABASE_URL "${redact(databaseUrl)}": expected mysql://user:pass@host:port/db or sqlite:<path>`);
}

function openMysql(databaseUrl: string): Knex {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new DatabaseUrlError(`malformed DATABASE_URL "${redact(databaseUrl)}"`);
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!url.hostname || !database) {
    throw new DatabaseUrlError(`DATABASE_URL "${redact(databaseUrl)}" must name a host and a database`);
  }
  const db = knex({
    client: 'mysql2',
    connection: {
      host: url.hostname,
      port: url.port ? Number(url.port) : 3306,
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database,
      charset: 'utf8mb4',
      // DATETIME columns hold UTC; without this mysql2 would convert through the host's time zone.
      timezone: 'Z',
      // The call path sends a transaction's statements together (statements.ts); values are always bound, never spliced in.
      multipleStatements: true,
      connectTimeout: CONNECT_TIMEOUT_MS,
    },
    pool: { min: 0, max: POOL_SIZE, afterCreate: setMysqlSessionTimeouts },
    acquireConnectionTimeout: POOL_ACQUIRE_TIMEOUT_MS,
    log: knexLog,
  });
  // While the server is out of reach, callers waiting for a connection hear so at once, not one per failed connect.
  watchReachability(db);
  return db;
}

interface MysqlConnection {
  query(sql: string, callback: (error: Error | null, rows?: unknown) => void): void;
}

function query(connection: MysqlConnection, sql: string): Promise<unknown> {
  return new Promise((resolve, reject) => connection.query(sql, (error, rows) => (error ? reject(error) : resolve(rows))));
}

function setMysqlSessionTimeouts(connection: MysqlConnection, done: (error: Error | null, connection: unknown) => void): void {
  void (async () => {
    await query(connection, `SET SESSION innodb_lock_wait_timeout = ${LOCK_WAIT_TIMEOUT_S}`);
    const [row] = (await query(connection, 'SELECT VERSION() AS version')) as Array<{ version: string }>;
    await query(
      connection,
      /mariadb/i.test(row?.version ?? '')
        ? `SET SESSION max_statement_time = ${STATEMENT_TIMEOUT_S}`
        : `SET SESSION max_execution_time = ${STATEMENT_TIMEOUT_S * 1000}`,
    );
  })().then(
    () => done(null, connection),
    (error: Error) => done(error, connection),
  );
}

function openSqlite(databaseUrl: string, walCheckpointThread: WalCheckpointOptions | undefined): Knex {
  // Accepts sqlite:./relative, sqlite:/absolute, sqlite:///absolute and sqlite::memory:.
  const location = databaseUrl.slice('sqlite:'.length).replace(/^\/\//, '');
  if (!location) throw new DatabaseUrlError('DATABASE_URL "sqlite:" must be followed by a file path');
  const filename = location === ':memory:' ? location : path.resolve(location);
  if (filename !== ':memory:') mkdirSync(path.dirname(filename), { recursive: true });
  const checkpointsInThread = walCheckpointThread !== undefined && filename !== ':memory:';
  let checkpoints: WalCheckpoints | undefined;
  const db = knex({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    acquireConnectionTimeout: POOL_ACQUIRE_TIMEOUT_MS,
    log: knexLog,
    pool: {
      afterCreate(connection: BetterSqlite3.Database, done: (error: Error | null, connection: unknown) => void) {
        try {
          connection.pragma('journal_mode = WAL');
          // In WAL mode NORMAL is still atomic and survives a crash of the process; only a power
          // loss can undo the last few commits. It saves an fsync on every commit of the hot path.
          connection.pragma('synchronous = NORMAL');
          connection.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
          connection.pragma('foreign_keys = ON');
          if (checkpointsInThread) {
            connection.pragma(`wal_autocheckpoint = ${WAL_SAFETY_NET_PAGES}`);
            // Started once the file exists and is in WAL mode, that is with the connection.
            checkpoints ??= startWalCheckpoints(filename, walCheckpointThread);
          }
          done(null, connection);
        } catch (error) {
          done(error as Error, connection);
        }
      },
    },
  });
  if (checkpointsInThread) {
    // The thread lives as long as the pool's connection (one on SQLite): it ends when db.destroy() closes it.
    (db.client as { pool: { on(event: 'destroySuccess', listener: () => void): void } }).pool.on('destroySuccess', () => {
      void checkpoints?.stop();
      checkpoints = undefined;
    });
  }
  return db;
}

function redact(databaseUrl: string): string {
  return databaseUrl.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@');
}

const MIGRATION_ATTEMPTS = 10;

/**
 * Brings the schema up to date; cheap when it already is, so it runs on every start. Processes
 * that start together on a fresh database can collide creating knex's bookkeeping tables or
 * taking its lock (on SQLite the lock's UPDATE can also find the file busy: knex's MigrationLocked);
 * the loser waits a moment and tries again, 4.5 s in all at most.
 */
export async function migrateToLatest(db: Knex): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.migrate.latest({ migrationSource });
      return;
    } catch (error) {
      const collided = error instanceof Error && (error.name === 'MigrationLocked' || /already (exists|locked)/i.test(error.message));
      if (!collided || attempt >= MIGRATION_ATTEMPTS) throw error;
      await realClock.sleep(100 * attempt);
    }
  }
}
