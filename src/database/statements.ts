/**
 * Statements of the call path run on a pooled connection directly instead of being built by the
 * query builder on every call: on SQLite as statements prepared once per connection; on
 * MySQL/MariaDB as one script per round trip (several statements sent together), because there a
 * transaction's time is its round trips, each waiting for a busy event loop to read its answer.
 * The connection is taken from knex's own pool, so it is never shared with a knex transaction in
 * flight, and the pool's bounded waits still apply.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { Knex } from 'knex';

export type Engine = 'sqlite' | 'mysql';

export interface Step {
  sql: string;
  params: readonly unknown[];
}

/** The rows of a SELECT (or of a statement with RETURNING), or how many rows an INSERT, UPDATE or DELETE changed. */
export type StepResult = Array<Record<string, unknown>> | number;

export interface Script {
  readonly engine: Engine;
  /** Runs `steps` in order, in one round trip; with `commit`, the transaction ends with them. */
  run(steps: Step[], options?: { commit?: boolean }): Promise<StepResult[]>;
}

interface PoolClient {
  config: { client: string };
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void>;
}

interface Mysql2Connection {
  query(sql: string, params: unknown[], callback: (error: Error | null, result?: unknown) => void): void;
}

export function engineOf(db: Knex): Engine {
  return (db.client as PoolClient).config.client === 'mysql2' ? 'mysql' : 'sqlite';
}

const sqliteStatements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

/** Runs one statement on SQLite, prepared once per connection; dates bound as knex binds them (epoch milliseconds). */
function runSqlite(connection: BetterSqlite3.Database, { sql, params }: Step): StepResult {
  let cache = sqliteStatements.get(connection);
  if (!cache) sqliteStatements.set(connection, (cache = new Map()));
  let statement = cache.get(sql);
  if (!statement) cache.set(sql, (statement = connection.prepare(sql)));
  const values = params.map((value) => (value instanceof Date ? value.valueOf() : value));
  return statement.reader ? (statement.all(...values) as Array<Record<string, unknown>>) : statement.run(...values).changes;
}

/** Sends the steps as one multi-statement query (mysql2 escapes the values into it). */
function runMysql(connection: Mysql2Connection, steps: Step[]): Promise<StepResult[]> {
  const sql = steps.map((step) => step.sql).join('; ');
  const params = steps.flatMap((step) => [...step.params]);
  return new Promise((resolve, reject) =>
    connection.query(sql, params, (error, result) => {
      if (error) return reject(error);
      const results = (steps.length === 1 ? [result] : result) as unknown[];
      resolve(results.map((one) => (Array.isArray(one) ? (one as Array<Record<string, unknown>>) : (one as { affectedRows: number }).affectedRows)));
    }),
  );
}

async function withConnection<T>(db: Knex, work: (connection: unknown) => Promise<T>): Promise<T> {
  const client = db.client as PoolClient;
  const connection = await client.acquireConnection();
  try {
    return await work(connection);
  } finally {
    await client.releaseConnection(connection);
  }
}

/** Runs one statement on a pooled connection, on its own (autocommit). */
export function runStatement(db: Knex, step: Step): Promise<StepResult> {
  return withConnection(db, async (connection) =>
    engineOf(db) === 'sqlite' ? runSqlite(connection as BetterSqlite3.Database, step) : (await runMysql(connection as Mysql2Connection, [step]))[0]!,
  );
}

/**
 * Runs `work` in one transaction on a pooled connection: committed when it returns (or with its
 * last script), rolled back when it throws. On SQLite the write lock is taken at BEGIN, so a
 * transaction that reads before it writes waits for another process's writer instead of failing.
 */
export function inScriptTransaction<T>(db: Knex, work: (script: Script) => Promise<T>): Promise<T> {
  return withConnection(db, (connection) =>
    engineOf(db) === 'sqlite' ? sqliteTransaction(connection as BetterSqlite3.Database, work) : mysqlTransaction(connection as Mysql2Connection, work),
  );
}

async function sqliteTransaction<T>(connection: BetterSqlite3.Database, work: (script: Script) => Promise<T>): Promise<T> {
  const control = (sql: string): void => void runSqlite(connection, { sql, params: [] });
  control('BEGIN IMMEDIATE');
  try {
    const result = await work({ engine: 'sqlite', run: async (steps) => steps.map((step) => runSqlite(connection, step)) });
    control('COMMIT');
    return result;
  } catch (error) {
    if (connection.inTransaction) control('ROLLBACK');
    throw error;
  }
}

async function mysqlTransaction<T>(connection: Mysql2Connection, work: (script: Script) => Promise<T>): Promise<T> {
  let started = false;
  let committed = false;
  const script: Script = {
    engine: 'mysql',
    async run(steps, options = {}) {
      if (committed) throw new Error('the transaction has ended');
      const control = (sql: string): Step => ({ sql, params: [] });
      const sent = [...(started ? [] : [control('START TRANSACTION')]), ...steps, ...(options.commit ? [control('COMMIT')] : [])];
      started = true;
      const results = await runMysql(connection, sent);
      committed = Boolean(options.commit);
      return results.slice(sent.length - steps.length - (options.commit ? 1 : 0), sent.length - (options.commit ? 1 : 0));
    },
  };
  try {
    const result = await work(script);
    if (started && !committed) await runMysql(connection, [{ sql: 'COMMIT', params: [] }]);
    return result;
  } catch (error) {
    // A lost connection cannot roll back; the server does when it notices, and the pool drops the connection.
    if (started) await runMysql(connection, [{ sql: 'ROLLBACK', params: [] }]).catch(() => undefined);
    throw error;
  }
}
