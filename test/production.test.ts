/**
 * The server as an operator installs and starts it: a copy of what a deployment needs (the sources,
 * generated/, the build script, package.json and its lock file), `npm ci --omit=dev` (no
 * devDependencies: no tsx, no TypeScript), then `npm start`, which builds dist/ and runs it with
 * plain node, stdout going to a file as under a service manager.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { SERVER_NODE_FLAGS } from '../src/node-flags.ts';
import { STARTER_KEY_FILE_NAME } from '../src/starter-key.ts';
import { listCapabilities } from '../src/tools/list-capabilities.ts';
import { eventually } from './support/eventually.ts';
import { removeAtExit } from './support/remove-at-exit.ts';

const PROJECT = fileURLToPath(new URL('../', import.meta.url));
/** What a deployment is made from; nothing else of the checkout is copied. */
const DEPLOYED = ['package.json', 'package-lock.json', 'scripts/build.js', 'src', 'generated'];
const KEY_PATTERN = /sm_[0-9A-Za-z]{40}/;

/** Runs `command` in `cwd` and resolves with its stdout and stderr; rejects with them when it fails. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve({ stdout, stderr }) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${stdout}${stderr}`)),
    );
  });
}

/** The processes of process group `group` still running (from /proc). */
function groupMembers(group: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The process group is the third field after the command name, which is in parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === group && fields[0] !== 'Z') members.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return members;
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // the group has no process left
  }
}

/** The command lines of every descendant of `pid` (from /proc), children first. */
function descendants(pid: number): string[][] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent's id is the second field after the command name, which is in parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // the process ended meanwhile
    }
  }
  const found: string[][] = [];
  const visit = (parent: number): void => {
    for (const child of children.get(parent) ?? []) {
      try {
        found.push(readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').filter(Boolean));
      } catch {
        continue;
      }
      visit(child);
    }
  };
  visit(pid);
  return found;
}

describe('the production install, as an operator runs it', function () {
  this.timeout(300_000);
  let folder: string;
  let env: NodeJS.ProcessEnv;
  let npmStart: ChildProcess | undefined;
  let stdoutFile: string;
  let stderrFile: string;
  let installOutput: string;

  before(async function () {
    folder = mkdtempSync(path.join(os.tmpdir(), 'research-tools-production-'));
    removeAtExit(folder);
    for (const item of DEPLOYED) cpSync(path.join(PROJECT, item), path.join(folder, item), { recursive: true });
    // The server's own configuration only: the embedded default database, a free port.
    env = { ...process.env, PORT: '0' };
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'TEST_REDIS_URL', 'LOG_LEVEL', 'FILES_DIR']) delete env[name];
    // From npm's cache when it holds the packages (this checkout's install filled it).
    const install = await run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], folder, env);
    installOutput = install.stdout + install.stderr;
  });

  after(async function () {
    if (!npmStart?.pid) return;
    // npm does not pass SIGTERM on to the server it started: stop its whole process group, and wait until the server is gone too.
    const group = npmStart.pid;
    const exited = npmStart.exitCode === null ? new Promise((resolve) => npmStart!.once('exit', resolve)) : Promise.resolve();
    signalGroup(group, 'SIGTERM');
    await exited;
    const stopped = await eventually(
      async () => groupMembers(group).length,
      (left) => left === 0,
      30_000,
    );
    if (stopped !== 0) signalGroup(group, 'SIGKILL');
  });

  it('has no devDependency installed but type declarations that dependencies bring (no TypeScript loader, no test tools)', function () {
    const devDependencies = Object.keys((JSON.parse(readFileSync(path.join(PROJECT, 'package.json'), 'utf8')) as { devDependencies: object }).devDependencies);
    expect(devDependencies).to.include.members(['tsx', 'typescript', 'mocha']);
    const installed = devDependencies.filter((name) => existsSync(path.join(folder, 'node_modules', name)));
    expect(installed.filter((name) => !name.startsWith('@types/'))).to.deep.equal([]);
    // Every package installed supports the running Node (a supported line: package.json engines).
    expect(installOutput).not.to.include('EBADENGINE');
  });

  it('npm start builds dist/, runs it with plain node and the server flags, and serves the first call of the README with the starter key', async function () {
    stdoutFile = path.join(folder, 'stdout.log');
    stderrFile = path.join(folder, 'stderr.log');
    npmStart = spawn('npm', ['start'], {
      cwd: folder,
      env,
      // A process group of its own, so that the server npm starts can be stopped with it.
      detached: true,
      stdio: ['ignore', openSync(stdoutFile, 'w'), openSync(stderrFile, 'w')],
    });
    const listening = await eventually(
      async () =>
        readFileSync(stdoutFile, 'utf8')
          .split('\n')
          .find((line) => line.includes('"msg":"listening')),
      (line) => line !== undefined || npmStart!.exitCode !== null,
      120_000,
    );
    expect(listening, `npm start did not listen: ${readFileSync(stderrFile, 'utf8')}`).to.be.a('string');
    const { port } = JSON.parse(listening!) as { port: number };

    const processes = descendants(npmStart.pid!);
    const server = processes.find((command) => command.at(-1) === 'dist/main.js');
    expect(server, JSON.stringify(processes)).to.deep.equal([server![0], ...SERVER_NODE_FLAGS, 'dist/main.js']);
    expect(path.basename(server![0]!)).to.equal('node');
    expect(processes.filter((command) => command.some((part) => /tsx|esbuild/.test(part)))).to.deep.equal([]);

    const key = KEY_PATTERN.exec(readFileSync(path.join(folder, 'data', STARTER_KEY_FILE_NAME), 'utf8'))![0];
    const response = await fetch(`http://127.0.0.1:${port}/api/v1/list_capabilities`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    const answer = (await response.json()) as { summary: string; records: Array<{ id: string }>; credits_used: number };
    const expected = await listCapabilities({});
    expect([response.status, answer.summary, answer.records.map((record) => record.id), answer.credits_used]).to.deep.equal([
      200,
      expected.summary,
      expected.records.map((record) => record.id),
      0,
    ]);
  });

  it('with stdout and stderr going to files, puts the starter key in neither: it is in data/starter-key.txt (mode 0600), whose path the log gives', function () {
    const stdout = readFileSync(stdoutFile, 'utf8');
    expect(stdout).not.to.match(KEY_PATTERN);
    expect(readFileSync(stderrFile, 'utf8')).not.to.match(KEY_PATTERN);
    const keyFile = path.join(folder, 'data', STARTER_KEY_FILE_NAME);
    expect(statSync(keyFile).mode & 0o777).to.equal(0o600);
    expect(stdout).to.include(`"file":${JSON.stringify(keyFile)}`);
  });

  it('npm run --silent admin runs the admin CLI from dist/ and prints only its JSON', async function () {
    const accountId = /created account (acc_\w+)/.exec(readFileSync(path.join(folder, 'data', STARTER_KEY_FILE_NAME), 'utf8'))![1]!;
    const { stdout } = await run('npm', ['run', '--silent', 'admin', '--', 'accounts', 'show', accountId], folder, env);
    const account = JSON.parse(stdout) as { id: string; credits: number };
    expect([account.id, account.credits]).to.deep.equal([accountId, 100]);
  });
});
