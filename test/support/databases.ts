/**
 * The database engines the suites run against: SQLite always (one temporary file per test
 * process), MySQL/MariaDB when DATABASE_URL is a mysql:// URL (CI sets
 * DATABASE_URL=mysql://root@127.0.0.1:3306/test). Suites must create their own rows and never
 * truncate tables: the MySQL database may be shared.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { migrateToLatest, openDatabase } from '../../src/ledger/database.ts';

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
    process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
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
 * migrated pool inside hooks and tests.
 */
export function describeOnEachEngine(title: string, body: (engine: EngineUnderTest) => void): void {
  for (const engine of testEngines()) {
    describe(`${title} (${engine.name})`, function () {
      let db: Knex | undefined;
      const underTest: EngineUnderTest = {
        ...engine,
        get db(): Knex {
          if (!db) throw new Error('the database is opened in the suite before hook; use it inside tests');
          return db;
        },
      };
      before(async function () {
        db = openDatabase(engine.url);
        await migrateToLatest(db);
      });
      after(async function () {
        await db?.destroy();
        db = undefined;
      });
      body(underTest);
    });
  }
}
