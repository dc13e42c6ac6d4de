import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));
// Besides the one `npx tsx` run, the CLI runs under node directly: npx may add its own warnings to stderr.
const cli = (...argv: string[]): string[] => ['--import', 'tsx', 'src/admin/cli.ts', ...argv];

describe('admin CLI as a process', function () {
  this.timeout(20_000);
  let folder: string;
  before(function () {
    folder = mkdtempSync(path.join(os.tmpdir(), 'research-tools-cli-'));
  });
  after(function () {
    rmSync(folder, { recursive: true, force: true });
  });

  it('prints help with examples for `npx tsx src/admin/cli.ts --help` and exits 0', async function () {
    const { stdout } = await run('npx', ['tsx', 'src/admin/cli.ts', '--help'], { cwd: projectRoot });
    expect(stdout).to.include('Usage: admin <command> [options]');
    expect(stdout).to.include('Examples:');
  });

  it('creates an account on a SQLite file, prints it as JSON and exits once the pool is closed', async function () {
    const { stdout } = await run(process.execPath, cli('accounts', 'create', '--name', 'Process lab', '--credits', '3'), {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: `sqlite:${path.join(folder, 'cli.sqlite')}` },
      timeout: 15_000,
    });
    const account = JSON.parse(stdout) as { id: string };
    expect(account).to.deep.equal({ id: account.id, name: 'Process lab', credits: 3 });
  });

  it('writes a JSON error on stderr and exits 2 for an unknown command', async function () {
    const failure = await run(process.execPath, cli('bogus'), { cwd: projectRoot }).then(
      () => expect.fail('the command should have failed'),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure.code).to.equal(2);
    expect(failure.stdout).to.equal('');
    expect(JSON.parse(failure.stderr)).to.deep.equal({ error: { code: 'usage', message: "unknown command 'bogus'" } });
  });
});
