/**
 * `npm run test:mutations`: do the money and security suites fail when the code they cover is
 * wrong? Each deliberate fault below is a small text patch of src/, anchored on lines that must
 * exist exactly once (so this script fails loudly when the code has moved), applied to a copy of
 * the repository in a temporary folder, never to the working tree. The fault's suites then run in
 * that copy (SQLite always; MySQL/MariaDB too when DATABASE_URL is a mysql:// URL, as in `npm test`):
 * a fault is caught when at least one test fails, MISSED when they all pass. First the same suites
 * run on an unpatched copy, which must pass, so that a failure under a fault is the fault's doing.
 *
 *   npm run test:mutations                   every fault
 *   npm run test:mutations -- <name> …       only the faults whose names contain one of the words
 *
 * Exit code 0 when every fault was caught; 1 when one was missed or the unpatched suites failed;
 * 2 when a patch's anchor is not in the code.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface Patch {
  file: string;
  /** Text that must occur exactly once in `file`. */
  anchor: string;
  replacement: string;
}

interface Fault {
  name: string;
  patches: Patch[];
  /** The test files that must fail under the fault. */
  suites: string[];
}

const FAULTS: Fault[] = [
  {
    name: 'refuse every charged call',
    patches: [
      {
        file: 'src/ledger/holds.ts',
        anchor: "    const taken = await t('accounts').where({ id: accountId }).andWhere('balance', '>=', credits).decrement('balance', credits);\n",
        replacement: '    const taken = 0; // deliberate fault: every hold refused\n',
      },
      {
        file: 'src/ledger/call-batches.ts',
        anchor: '    const conditional = oneRoundTrip && total > 0;\n',
        replacement: '    const conditional = false; // deliberate fault: the path below refuses every hold\n',
      },
      {
        file: 'src/ledger/call-batches.ts',
        anchor: '        if (pending.held.credits > left) admitted.delete(pending);\n',
        replacement: '        if (pending.held.credits > 0) admitted.delete(pending); // deliberate fault: every hold refused\n',
      },
    ],
    suites: ['test/ledger/credits.test.ts', 'test/server/faults.test.ts', 'test/server/concurrency.test.ts'],
  },
  {
    name: 'never release a hold',
    patches: [
      {
        file: 'src/ledger/holds.ts',
        anchor: 'export async function writeRelease(trx: Knex.Transaction, held: Held): Promise<boolean> {\n',
        replacement:
          'export async function writeRelease(trx: Knex.Transaction, held: Held): Promise<boolean> {\n' +
          '  if (held.credits >= 0) return true; // deliberate fault: a release that writes nothing\n',
      },
    ],
    suites: ['test/ledger/credits.test.ts', 'test/server/faults.test.ts'],
  },
  {
    name: 'capture on a 502',
    patches: [
      {
        file: 'src/server/run-tool-call.ts',
        anchor: '      const answered = await charge.fail(error, record);\n',
        replacement:
          "      const answered = toApiError(error).code === 'upstream_error' ? await charge.succeed(record()).then(() => error) : await charge.fail(error, record); // deliberate fault\n",
      },
    ],
    suites: ['test/server/api.test.ts', 'test/server/faults.test.ts', 'test/tools/literature-over-http.test.ts'],
  },
  {
    name: 'skip the pack check',
    patches: [
      {
        file: 'src/server/run-tool-call.ts',
        anchor: '      if (caller.disabledPacks.includes(tool.pack)) {\n',
        replacement: '      if (caller.disabledPacks.includes(tool.pack) && false) { // deliberate fault\n',
      },
    ],
    suites: ['test/server/api.test.ts', 'test/server/account-settings.test.ts', 'test/server/mcp.test.ts'],
  },
  {
    name: 'accept a deleted key',
    patches: [
      {
        file: 'src/ledger/keys.ts',
        anchor: "    .where('k.key_hash', hashKey(rawKey))\n    .whereNull('k.deleted_at')\n",
        replacement: "    .where('k.key_hash', hashKey(rawKey)) // deliberate fault: deleted keys too\n",
      },
    ],
    suites: ['test/server/api.test.ts', 'test/server/account-settings.test.ts', 'test/ledger/keys.test.ts'],
  },
];

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Temporary copies still on disk, and the test run under way: removed and stopped on any exit. */
const copies = new Set<string>();
let running: ChildProcess | undefined;

function cleanUp(): void {
  if (running?.pid !== undefined && running.exitCode === null) {
    try {
      process.kill(-running.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  copies.clear();
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.log(`\n${signal}: removing the temporary copies; the working tree was never changed`);
    cleanUp();
    process.exit(130);
  });
}

class AnchorMissing extends Error {}

/** The fault's patches applied to the text of the files, checked first: each anchor exactly once. */
function patchedFiles(fault: Fault): Map<string, string> {
  const files = new Map<string, string>();
  for (const patch of fault.patches) {
    const text = files.get(patch.file) ?? readFileSync(path.join(ROOT, patch.file), 'utf8');
    const count = text.split(patch.anchor).length - 1;
    if (count !== 1) {
      throw new AnchorMissing(
        `fault "${fault.name}": ${patch.file} holds its anchor ${count} times, not once; the code has moved, update the fault in scripts/mutations.ts:\n${patch.anchor}`,
      );
    }
    files.set(
      patch.file,
      text.replace(patch.anchor, () => patch.replacement),
    );
  }
  return files;
}

/** A copy of the repository's files as they are on disk (tracked and new, not ignored), using its installed packages. */
function copyOfRepository(label: string): string {
  const copy = mkdtempSync(path.join(os.tmpdir(), `research-tools-mutation-${label}-`));
  copies.add(copy);
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  for (const file of listed.split('\0').filter(Boolean)) {
    const from = path.join(ROOT, file);
    if (existsSync(from)) cpSync(from, path.join(copy, file), { recursive: true });
  }
  // The packages are the project's own (linked one by one); node_modules/.cache is the copy's, since the
  // suites bundle server processes into it and those must live under the copy, where their entry is.
  mkdirSync(path.join(copy, 'node_modules', '.cache'), { recursive: true });
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry !== '.cache') symlinkSync(path.join(ROOT, 'node_modules', entry), path.join(copy, 'node_modules', entry));
  }
  return copy;
}

interface SuiteRun {
  exitCode: number;
  /** Mocha wrote its report: the tests ran (a crash before, or a patch that does not load, writes none). */
  reported: boolean;
  failed: string[];
  passed: number;
  /** The end of mocha's stderr, for a run without a report. */
  said: string;
}

/** Runs mocha on `suites` in `copy`, with the project's .mocharc.json and a JSON report. */
function runSuites(copy: string, suites: string[]): Promise<SuiteRun> {
  const report = path.join(copy, 'mutation-report.json');
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(copy, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--reporter', 'json', '--reporter-option', `output=${report}`, ...suites],
      { cwd: copy, stdio: ['ignore', 'ignore', 'pipe'], detached: true },
    );
    running = child;
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr = (stderr + String(chunk)).slice(-4000)));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      running = undefined;
      const exitCode = code ?? (signal ? 128 : 1);
      const said = stderr.trim().split('\n').slice(-5).join(' / ');
      if (!existsSync(report)) return resolve({ exitCode, reported: false, failed: [], passed: 0, said });
      const parsed = JSON.parse(readFileSync(report, 'utf8')) as { stats: { passes: number }; failures: Array<{ fullTitle: string }> };
      resolve({ exitCode, reported: true, failed: parsed.failures.map((failure) => failure.fullTitle), passed: parsed.stats.passes, said });
    });
  });
}

function summary(run: SuiteRun, shown = 3): string {
  if (!run.reported) return `no test report, exit code ${run.exitCode}: ${run.said}`;
  const names = run.failed.slice(0, shown).map((title) => `\n      - ${title}`);
  const more = run.failed.length > shown ? `\n      … and ${run.failed.length - shown} more` : '';
  return `${run.failed.length} failed, ${run.passed} passed${names.join('')}${more}`;
}

async function main(): Promise<number> {
  const words = process.argv.slice(2);
  const chosen = words.length === 0 ? FAULTS : FAULTS.filter((fault) => words.some((word) => fault.name.includes(word)));
  if (chosen.length === 0) {
    console.log(`no fault matches ${words.join(', ')}; the faults: ${FAULTS.map((fault) => fault.name).join('; ')}`);
    return 2;
  }
  // Every anchor is checked before anything runs.
  const patched = new Map<Fault, Map<string, string>>();
  try {
    for (const fault of chosen) patched.set(fault, patchedFiles(fault));
  } catch (error) {
    if (error instanceof AnchorMissing) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  const engines = (process.env.DATABASE_URL ?? '').startsWith('mysql://')
    ? 'SQLite and MySQL/MariaDB (DATABASE_URL)'
    : 'SQLite (DATABASE_URL is not a mysql:// URL)';
  console.log(`Deliberate faults, each in a copy of the repository; suites on ${engines}.`);

  const allSuites = [...new Set(chosen.flatMap((fault) => fault.suites))].sort();
  const baselineCopy = copyOfRepository('unpatched');
  const baseline = await runSuites(baselineCopy, allSuites);
  rmSync(baselineCopy, { recursive: true, force: true });
  copies.delete(baselineCopy);
  const baselinePassed = baseline.reported && baseline.exitCode === 0 && baseline.failed.length === 0;
  console.log(`  unpatched code: ${baselinePassed ? 'suites pass' : 'SUITES FAIL'} (${summary(baseline)})`);
  if (!baselinePassed) {
    console.log('The suites must pass on the unpatched code before a fault can be judged.');
    return 1;
  }

  const missed: string[] = [];
  for (const fault of chosen) {
    const copy = copyOfRepository(fault.name.replace(/\W+/g, '-'));
    for (const [file, text] of patched.get(fault)!) writeFileSync(path.join(copy, file), text);
    const run = await runSuites(copy, fault.suites);
    rmSync(copy, { recursive: true, force: true });
    copies.delete(copy);
    // Caught: the tests ran and some failed. A run that did not get as far as a report proves nothing.
    const verdict = !run.reported ? 'NOT JUDGED' : run.failed.length > 0 ? 'caught' : 'MISSED';
    if (verdict !== 'caught') missed.push(fault.name);
    console.log(`  ${fault.name}: ${verdict} (${fault.suites.join(', ')}: ${summary(run)})`);
  }
  console.log(missed.length === 0 ? `Every fault was caught (${chosen.length}).` : `Not caught: ${missed.join('; ')}`);
  return missed.length === 0 ? 0 : 1;
}

process.exitCode = await main();
