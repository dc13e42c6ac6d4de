/**
 * npm run api:check [-- --base <ref>]
 *
 * The CI gate for the public interface: `codegen --check`, then the OpenAPI diff between
 * `<ref>:generated/openapi.json` (default ref HEAD~1, the previous commit of main) and the working
 * tree's generated/openapi.json. Fails on every breaking (ERR) change that api-changes.yaml does not
 * acknowledge. Passes, saying so, when there is no previous commit or the file did not exist there.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runCodegen } from '../cli.ts';
import { acknowledges, readAcknowledgements } from './acknowledgements.ts';
import type { Io } from './cli.ts';
import { diffSpecs } from './diff.ts';
import { render } from './format.ts';
import { InputError, loadSpec } from './load.ts';

const usage = `Usage: npm run api:check -- [--base <ref>] [--format text|markdown|github] [--no-codegen-check]

1. codegen --check (generated/ must match tools.yaml)
2. OpenAPI diff <ref>:generated/openapi.json -> generated/openapi.json (default ref: HEAD~1)
3. exit 1 when a breaking (ERR) change is not acknowledged in api-changes.yaml

Options:
  --base <ref>          the git revision to compare with (default HEAD~1; in CI, the last commit of main)
  --root <dir>          the project folder (default: the current folder)
  --format <format>     how to print the diff: text (default), markdown, github
  --no-codegen-check    skip step 1 (when the caller has just run it)`;

const consoleIo: Io = { out: (text) => console.log(text), err: (text) => console.error(text) };

const SPEC = 'generated/openapi.json';
const ACKNOWLEDGEMENTS = 'api-changes.yaml';

function git(args: string[], cwd: string): boolean {
  try {
    execFileSync('git', args, { cwd, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function gitText(args: string[], cwd: string): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

export function runApiCheck(argv: string[], io: Io = consoleIo): number {
  let values;
  try {
    values = parseArgs({
      args: argv,
      options: {
        base: { type: 'string', default: 'HEAD~1' },
        root: { type: 'string', default: '.' },
        format: { type: 'string', default: 'text' },
        'no-codegen-check': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    io.err(`api:check: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    io.out(usage);
    return 0;
  }
  const format = values.format as 'text' | 'markdown' | 'github';
  if (!['text', 'markdown', 'github'].includes(format)) {
    io.err(`api:check: unknown --format ${values.format}\n\n${usage}`);
    return 2;
  }
  const root = resolve(values.root);
  const base = values.base;
  if (!values['no-codegen-check']) {
    const code = runCodegen(['--check', '--manifest', join(root, 'tools.yaml'), '--out', join(root, 'generated')]);
    if (code !== 0) {
      io.err('api:check: failed at codegen --check (see above).');
      return 1;
    }
  }
  if (!git(['rev-parse', '--verify', '--quiet', `${base}^{commit}`], root)) {
    if (argv.some((arg) => arg === '--base' || arg.startsWith('--base='))) {
      io.err(`api:check: --base ${base} is not a commit of this repository.`);
      return 2;
    }
    if (gitText(['rev-parse', '--is-shallow-repository'], root) === 'true') {
      io.err(`api:check: this is a shallow clone without ${base}; fetch at least two commits (for example fetch-depth: 2) or pass --base.`);
      return 2;
    }
    io.out(`api:check: there is no previous commit (${base}) to compare with; no OpenAPI diff, passing.`);
    return 0;
  }
  if (!git(['cat-file', '-e', `${base}:${SPEC}`], root)) {
    io.out(`api:check: ${SPEC} did not exist at ${base}; nothing to compare with, passing.`);
    return 0;
  }
  try {
    const acks = readAcknowledgements(join(root, ACKNOWLEDGEMENTS));
    const changes = diffSpecs(loadSpec(`${base}:${SPEC}`, root), loadSpec(SPEC, root));
    io.out(render({ base: `${base}:${SPEC}`, revision: SPEC, changes, file: SPEC }, format));
    const breaking = changes.filter((change) => change.level === 'ERR');
    const open = breaking.filter((change) => !acks.some((ack) => acknowledges(ack, change)));
    const unused = acks.filter((ack) => !changes.some((change) => acknowledges(ack, change)));
    if (unused.length > 0) {
      io.out(`api:check: ${unused.length} ${unused.length === 1 ? 'entry' : 'entries'} of ${ACKNOWLEDGEMENTS} ${unused.length === 1 ? 'matches' : 'match'} no change since ${base} (kept from earlier changes; remove when you like):` +
        unused.map((ack) => `\n  - ${ack.rule} ${ack.operation ?? ''}`.trimEnd()).join(''));
    }
    if (open.length > 0) {
      io.err(`api:check: FAILED: ${open.length} breaking change${open.length === 1 ? '' : 's'} since ${base} not acknowledged in ${ACKNOWLEDGEMENTS}:` +
        open.map((change) => `\n  - rule: ${change.id}\n    operation: ${change.operation ?? '(none: leave operation out)'}\n    at: ${change.path}\n    change: ${change.message}`).join('') +
        `\nIf the break is intended, add each one under \`acknowledged:\` in ${ACKNOWLEDGEMENTS} with rule, operation and a reason, and commit it.`);
      return 1;
    }
    io.out(breaking.length === 0
      ? `api:check: passed: no breaking change since ${base}.`
      : `api:check: passed: ${breaking.length} breaking change${breaking.length === 1 ? '' : 's'} since ${base}, all acknowledged in ${ACKNOWLEDGEMENTS}.`);
    return 0;
  } catch (error) {
    if (error instanceof InputError) {
      io.err(`api:check: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = runApiCheck(process.argv.slice(2));
}
