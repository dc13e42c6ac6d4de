/**
 * The database engines the suites run against: SQLite always (one temporary file per test
 * process), MySQL/MariaDB when DATABASE_URL is a mysql:// URL (CI sets
 * DATABASE_URL=mysql://root@127.0.0.1:3306/test). Suites must create their own rows and never
 * truncate tables: the MySQL database may be shared.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { migrateToLatest, openDatabase } from '../../src/database/connection.ts';
import { removeAtExit } from './remove-at-exit.ts';

export type EngineName = 'sqlite' | 'mysql';

export interface Engine {
  name: EngineName;
  /** A DATABASE_URL for this engine. */
  url: string;
}

export interface EngineUnderTest extends Engine {
  /** A migrated pool, open from the suite's `before` hook to its `after` hook. */
  readonly db: Knex;
}

let sqliteUrl: string | undefined;
let mysqlSkipReported = false;

function temporarySqliteUrl(): string {
  if (!sqliteUrl) {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'research-tools-test-'));
    removeAtExit(folder);
    sqliteUrl = `sqlite:${path.join(folder, 'ledger.sqlite')}`;
  }
  return sqliteUrl;
}

/** The engines to test in this run; says once on stdout when the MySQL suites are skipped, and why. */
export function testEngines(env: NodeJS.ProcessEnv = process.env): Engine[] {
  const engines: Engine[] = [{ name: 'sqlite', url: temporarySqliteUrl() }];
  const databaseUrl = env.DATABASE_URL ?? '';
  if (databaseUrl.startsWith('mysql://')) {
    engines.push({ name: 'mysql', url: databaseUrl });
  } else if (!mysqlSkipReported) {
    mysqlSkipReported = true;
    const reason = databaseUrl ? 'DATABASE_URL is not a mysql:// URL' : 'DATABASE_URL is not set';
    console.log(`MySQL suites skipped: ${reason}. Run them with DATABASE_URL=mysql://root@127.0.0.1:3306/test (SQLite suites still run).`);
  }
  return engines;
}

/**
 * Declares `describe(title + engine)` once per engine; `body` gets an object whose `db` is a
 * migrated pool inside hooks and tests. With `ownDatabase`, the suite gets a database of its own (a
 * new MySQL database, dropped after the suite; a new SQLite file) instead of the shared one: for
 * faults that reach beyond the suite's own rows (killing every busy connection of the database,
 * sweeping every old hold), which must not hit suites running meanwhile in the other test process.
 */
export function describeOnEachEngine(title: string, body: (engine: EngineUnderTest) => void, options: { ownDatabase?: boolean } = {}): void {
  for (const engine of testEngines()) {
    describe(`${title} (${engine.name})`, function () {
      let db: Knex | undefined;
      let url = engine.url;
      let dropOwnDatabase: (() => Promise<void>) | undefined;
      const underTest: EngineUnderTest = {
        name: engine.name,
        get url(): string {
          return url;
        },
        get db(): Knex {
          if (!db) throw new Error('the database is opened in the suite before hook; use it inside tests');
          return db;
        },
      };
      before(async function () {
        if (options.ownDatabase) ({ url, drop: dropOwnDatabase } = await createOwnDatabase(engine));
        db = openDatabase(url);
        await migrateToLatest(db);
      });
      after(async function () {
        await db?.destroy();
        db = undefined;
        await dropOwnDatabase?.();
      });
      body(underTest);
    });
  }
}

async function createOwnDatabase(engine: Engine): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `suite_${randomBytes(6).toString('hex')}`;
  if (engine.name === 'sqlite') {
    return { url: `sqlite:${path.join(path.dirname(engine.url.slice('sqlite:'.length)), `${name}.sqlite`)}`, drop: async () => undefined };
  }
  const server = openDatabase(engine.url);
  try {
    await server.raw('CREATE DATABASE ??', [name]);
  } finally {
    await server.destroy();
  }
  const own = new URL(engine.url);
  own.pathname = `/${name}`;
  return {
    url: own.toString(),
    drop: async () => {
      const again = openDatabase(engine.url);
      try {
        await again.raw('DROP DATABASE IF EXISTS ??', [name]);
      } finally {
        await again.destroy();
      }
    },
  };
}
