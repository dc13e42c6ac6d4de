import { expect } from 'chai';
import { runAdmin, type AdminResult } from '../../src/admin/commands.ts';
import { ledgerSum, recordCall } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';

const ALL_PACKS_ON = { general: true, life: true, chem: true, earth: true, astro: true, humanities: true };

function parsed(result: AdminResult): unknown {
  expect(result.stderr, 'stderr').to.equal('');
  expect(result.exitCode, 'exit code').to.equal(0);
  return JSON.parse(result.stdout);
}

function failure(result: AdminResult): { exitCode: number; error: { code: string; message: string } } {
  expect(result.stdout, 'stdout').to.equal('');
  return { exitCode: result.exitCode, ...(JSON.parse(result.stderr) as { error: { code: string; message: string } }) };
}

describeOnEachEngine('admin CLI', (engine) => {
  const admin = (...argv: string[]): Promise<AdminResult> => runAdmin(argv, { env: { DATABASE_URL: engine.url } });

  async function newAccount(credits = 0): Promise<string> {
    const account = parsed(await admin('accounts', 'create', '--name', 'CLI lab', '--credits', String(credits)));
    return (account as { id: string }).id;
  }

  it('creates an account and shows it with its credits and packs', async function () {
    const created = parsed(await admin('accounts', 'create', '--name', 'Lab A', '--credits', '1000')) as { id: string };
    expect(created).to.deep.equal({ id: created.id, name: 'Lab A', credits: 1000 });
    expect(created.id).to.match(/^acc_/);
    expect(parsed(await admin('accounts', 'show', created.id))).to.deep.equal({
      id: created.id,
      name: 'Lab A',
      credits: 1000,
      packs: ALL_PACKS_ON,
    });
  });

  it('adds credits and prints the new balance, which equals the ledger sum', async function () {
    const id = await newAccount(5);
    expect(parsed(await admin('credits', 'add', id, '20'))).to.deep.equal({ id, credits: 25 });
    expect(await ledgerSum(engine.db, id)).to.equal(25);
  });

  it('creates, lists and deletes keys; the key is printed only at creation', async function () {
    const id = await newAccount();
    const key = parsed(await admin('keys', 'create', id, '--name', 'laptop')) as { id: string; key: string; prefix: string };
    expect(Object.keys(key)).to.deep.equal(['id', 'key', 'prefix']);
    expect(key.key).to.match(/^sm_[0-9A-Za-z]{40}$/);
    expect(key.prefix).to.equal(key.key.slice(0, 7));

    const listing = await admin('keys', 'list', id);
    expect(listing.stdout).not.to.include(key.key);
    const [listed, ...others] = parsed(listing) as Record<string, unknown>[];
    expect(others).to.deep.equal([]);
    expect(listed).to.deep.include({ id: key.id, name: 'laptop', prefix: key.prefix, last_used_at: null });
    expect(Object.keys(listed ?? {})).to.deep.equal(['id', 'name', 'prefix', 'created_at', 'last_used_at']);

    expect(parsed(await admin('keys', 'delete', key.id))).to.deep.equal({ id: key.id, deleted: true });
    expect(parsed(await admin('keys', 'list', id))).to.deep.equal([]);
    const again = failure(await admin('keys', 'delete', key.id));
    expect(again.exitCode).to.equal(1);
    expect(again.error.code).to.equal('not_found');
  });

  it('switches a pack off and on, as accounts show reports', async function () {
    const id = await newAccount();
    expect(parsed(await admin('packs', 'disable', id, 'humanities'))).to.deep.equal({
      id,
      pack: 'humanities',
      enabled: false,
    });
    const shown = parsed(await admin('accounts', 'show', id)) as { packs: Record<string, boolean> };
    expect(shown.packs).to.deep.equal({ ...ALL_PACKS_ON, humanities: false });
    expect(parsed(await admin('packs', 'enable', id, 'humanities'))).to.deep.equal({ id, pack: 'humanities', enabled: true });
    expect((parsed(await admin('accounts', 'show', id)) as { packs: unknown }).packs).to.deep.equal(ALL_PACKS_ON);
  });

  it('lists usage newest first', async function () {
    const id = await newAccount();
    expect(parsed(await admin('usage', id))).to.deep.equal([]);
    const base = `call_cli_${Date.now()}`;
    for (const [n, at] of [
      [1, '2026-03-01T10:00:00.000Z'],
      [2, '2026-03-01T10:00:01.000Z'],
    ] as const) {
      await recordCall(engine.db, {
        callId: `${base}_${n}`,
        accountId: id,
        keyId: null,
        tool: 'search_papers',
        status: 'ok',
        credits: 1,
        durationMs: 10,
        at: new Date(at),
      });
    }
    expect(parsed(await admin('usage', id))).to.deep.equal([
      { call_id: `${base}_2`, tool: 'search_papers', status: 'ok', credits: 1, created_at: '2026-03-01T10:00:01.000Z' },
      { call_id: `${base}_1`, tool: 'search_papers', status: 'ok', credits: 1, created_at: '2026-03-01T10:00:00.000Z' },
    ]);
    expect(parsed(await admin('usage', id, '--limit', '1'))).to.have.length(1);
  });

  it('answers not_found with exit code 1 for an unknown account on every account command', async function () {
    for (const argv of [
      ['accounts', 'show', 'acc_doesNotExist00'],
      ['credits', 'add', 'acc_doesNotExist00', '5'],
      ['keys', 'create', 'acc_doesNotExist00'],
      ['keys', 'list', 'acc_doesNotExist00'],
      ['packs', 'disable', 'acc_doesNotExist00', 'chem'],
      ['usage', 'acc_doesNotExist00'],
    ]) {
      const { exitCode, error } = failure(await admin(...argv));
      expect({ argv, exitCode, code: error.code }).to.deep.equal({ argv, exitCode: 1, code: 'not_found' });
      expect(error.message).to.equal('no account "acc_doesNotExist00"');
    }
  });

  it('answers invalid_input with exit code 2 for bad credits and unknown packs', async function () {
    const id = await newAccount();
    for (const argv of [
      ['accounts', 'create', '--name', 'x', '--credits', '-1'],
      ['accounts', 'create', '--name', 'x', '--credits', '1.5'],
      ['accounts', 'create', '--name', 'x', '--credits', 'many'],
      ['accounts', 'create', '--name', ' ', '--credits', '1'],
      ['credits', 'add', id, '-3'],
      ['packs', 'disable', id, 'music'],
      ['usage', id, '--limit', '0'],
    ]) {
      const { exitCode, error } = failure(await admin(...argv));
      expect({ argv, exitCode, code: error.code }).to.deep.equal({ argv, exitCode: 2, code: 'invalid_input' });
    }
    const packError = failure(await admin('packs', 'disable', id, 'music')).error;
    expect(packError.message).to.include('general, life, chem, earth, astro, humanities');
  });

  it('answers a usage error with exit code 2 for unknown commands, missing arguments and missing commands', async function () {
    for (const argv of [[], ['accounts'], ['bogus'], ['accounts', 'show'], ['accounts', 'create', '--name', 'x'], ['keys', 'list', 'a', 'b']]) {
      const { exitCode, error } = failure(await admin(...argv));
      expect({ argv, exitCode, code: error.code }).to.deep.equal({ argv, exitCode: 2, code: 'usage' });
    }
  });
});

describe('admin CLI without a database', function () {
  it('answers invalid_config with exit code 1 for an unsupported DATABASE_URL', async function () {
    const result = await runAdmin(['accounts', 'show', 'acc_x'], { env: { DATABASE_URL: 'postgres://localhost/db' } });
    expect(result.exitCode).to.equal(1);
    expect(result.stdout).to.equal('');
    expect(JSON.parse(result.stderr).error.code).to.equal('invalid_config');
  });

  it('prints help with examples for the program and for every command, with exit code 0', async function () {
    const commands = [
      [],
      ['accounts', 'create'],
      ['accounts', 'show'],
      ['credits', 'add'],
      ['keys', 'create'],
      ['keys', 'list'],
      ['keys', 'delete'],
      ['packs', 'disable'],
      ['packs', 'enable'],
      ['usage'],
    ];
    for (const command of commands) {
      const result = await runAdmin([...command, '--help'], { env: { DATABASE_URL: 'postgres://never/opened' } });
      expect({ command, exitCode: result.exitCode, stderr: result.stderr }).to.deep.equal({ command, exitCode: 0, stderr: '' });
      expect(result.stdout).to.include('Examples:');
      expect(result.stdout).to.include(`npm run --silent admin -- ${command.join(' ')}`);
    }
  });
});
