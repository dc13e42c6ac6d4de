import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { createLogger } from '../src/logging.ts';
import { databaseFolder, showStarterKey, STARTER_KEY_FILE_NAME } from '../src/starter-key.ts';
import { removeAtExit } from './support/remove-at-exit.ts';

const STARTER = { accountId: 'acc_starter', credits: 100, key: `sm_${'k'.repeat(40)}`, port: 8080 };

/** A stream that keeps what is written to it; a TTY when `isTTY`. */
function capture(isTTY: boolean): { stream: PassThrough & { isTTY?: boolean }; text: () => string } {
  const stream: PassThrough & { isTTY?: boolean } = new PassThrough();
  if (isTTY) stream.isTTY = true;
  let text = '';
  stream.on('data', (chunk) => (text += String(chunk)));
  return { stream, text: () => text };
}

function temporaryFolder(): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'research-tools-starter-'));
  removeAtExit(folder);
  return folder;
}

describe('the starter key of a first start', function () {
  it('when stderr is a terminal, is shown there with a ready call, and neither logged nor written to a file', function () {
    const terminal = capture(true);
    const log = capture(false);
    const folder = temporaryFolder();
    showStarterKey(STARTER, { terminal: terminal.stream, folder, logger: createLogger('info', log.stream) });
    expect(terminal.text()).to.include(`created account acc_starter with 100 credits and this API key`);
    expect(terminal.text()).to.include(`\n  ${STARTER.key}\n`);
    expect(terminal.text()).to.include(`-H 'Authorization: Bearer ${STARTER.key}'`);
    expect(log.text()).to.equal('');
    expect(existsSync(path.join(folder, STARTER_KEY_FILE_NAME))).to.equal(false);
  });

  it('when stderr is not a terminal, goes to starter-key.txt beside the database with mode 0600, and the log names that file without the key', function () {
    const terminal = capture(false);
    const log = capture(false);
    const folder = temporaryFolder();
    // A file left by an earlier database, readable by all: replaced, and no longer readable by others.
    writeFileSync(path.join(folder, STARTER_KEY_FILE_NAME), 'old', { mode: 0o644 });
    showStarterKey(STARTER, { terminal: terminal.stream, folder, logger: createLogger('info', log.stream) });
    const file = path.join(folder, STARTER_KEY_FILE_NAME);
    expect(terminal.text()).to.equal('');
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    expect(readFileSync(file, 'utf8')).to.include(`\n  ${STARTER.key}\n`);
    expect(log.text()).not.to.include('sm_');
    const line = JSON.parse(log.text()) as Record<string, unknown>;
    expect([line.file, line.account_id, line.msg]).to.deep.equal([
      file,
      'acc_starter',
      `the starter account's API key is in ${file} (readable by this user only)`,
    ]);
  });

  it('is written beside the SQLite file of DATABASE_URL, or in the working folder for an in-memory database', function () {
    expect(databaseFolder('sqlite:./data/research-tools.sqlite')).to.equal(path.resolve('data'));
    expect(databaseFolder('sqlite:///var/lib/research-tools/ledger.sqlite')).to.equal('/var/lib/research-tools');
    expect(databaseFolder('sqlite::memory:')).to.equal(process.cwd());
  });
});
