import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { DatabaseUrlError, migrateToLatest, openDatabase } from '../../src/database/index.ts';
import { SQLITE_BUSY_TIMEOUT_MS } from '../../src/database/connection.ts';
import { describeOnEachEngine } from '../support/databases.ts';

describe('openDatabase', function () {
  let folder: string;
  before(function () {
    folder = mkdtempSync(path.join(os.tmpdir(), 'research-tools-db-'));
  });
  after(function () {
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses a URL of another scheme with a message naming the accepted ones, without the password', function () {
    expect(() => openDatabase('postgres://admin:hunter2@localhost/db'))
      .to.throw(DatabaseUrlError)
      .with.property('message')
      .that.includes('expected mysql://user:pass@host:port/db or sqlite:<path>')
      .and.not.include('hunter2');
  });

  it('refuses sqlite: without a path and mysql:// without a database', function () {
    expect(() => openDatabase('sqlite:')).to.throw(DatabaseUrlError);
    expect(() => openDatabase('mysql://root@127.0.0.1:3306')).to.throw(DatabaseUrlError);
  });

  it('creates the parent folders of a SQLite file and opens it in WAL mode with a busy timeout', async function () {
    const file = path.join(folder, 'nested', 'deeper', 'ledger.sqlite');
    const db = openDatabase(`sqlite:${file}`);
    try {
      await migrateToLatest(db);
      await migrateToLatest(db);
      expect(existsSync(file)).to.equal(true);
      expect(await db.raw('pragma journal_mode')).to.deep.equal([{ journal_mode: 'wal' }]);
      expect(await db.raw('pragma busy_timeout')).to.deep.equal([{ timeout: SQLITE_BUSY_TIMEOUT_MS }]);
      expect(await db.raw('pragma foreign_keys')).to.deep.equal([{ foreign_keys: 1 }]);
    } finally {
      await db.destroy();
    }
  });

  it('brings the schema up to date while another process holds the SQLite file for longer than its busy timeout', async function () {
    const file = path.join(folder, 'busy.sqlite');
    const first = openDatabase(`sqlite:${file}`);
    const second = openDatabase(`sqlite:${file}`);
    const other = new Database(file);
    try {
      await migrateToLatest(first);
      // As another server starting at the same moment would: the file is taken for a write while this one migrates.
      other.exec('BEGIN IMMEDIATE');
      const released = new Promise<void>((resolve) =>
        setTimeout(() => {
          other.exec('COMMIT');
          resolve();
        }, 3 * SQLITE_BUSY_TIMEOUT_MS),
      );
      await migrateToLatest(second);
      await released;
      expect(await second.schema.hasTable('ledger_entries')).to.equal(true);
    } finally {
      other.close();
      await Promise.all([first.destroy(), second.destroy()]);
    }
  });
});

describeOnEachEngine('schema migrations', (engine) => {
  it('creates the five ledger tables and runs again without change', async function () {
    await migrateToLatest(engine.db);
    for (const table of ['accounts', 'api_keys', 'account_packs', 'ledger_entries', 'calls']) {
      expect(await engine.db.schema.hasTable(table), table).to.equal(true);
    }
  });

  it('refuses a ledger entry of an unknown kind', async function () {
    const accountId = `acc_kind${Date.now()}`;
    await engine.db('accounts').insert({ id: accountId, name: 'Kinds', balance: 0, created_at: new Date() });
    let refusal: unknown;
    try {
      await engine.db('ledger_entries').insert({ account_id: accountId, kind: 'gift', amount: 1, created_at: new Date() });
    } catch (error) {
      refusal = error;
    }
    expect(String(refusal)).to.match(/constraint/i);
  });
});
