/**
 * npm run api:check [-- --base <ref>] [--main <branch>]
 *
 * The CI gate for the public interface: `codegen --check`, then the OpenAPI diff over the commits
 * this checkout adds. Which commits (docs/api-compatibility.md explains why this is sound):
 *
 * - `--base <ref>` (or API_CHECK_BASE): one range, <ref> -> working tree.
 * - On a branch: one range, `git merge-base HEAD <main>` -> working tree.
 * - On main itself (the merge base is HEAD): every first-parent step since `checked-since` of
 *   api-changes.yaml (or since the first commit), then HEAD -> working tree. A break followed by
 *   an unrelated commit therefore still fails: the step that made it is checked, not only the last one.
 *
 * In every range, each breaking (ERR) change must be acknowledged by an entry of api-changes.yaml
 * added in that same range, and each entry added in the range must match a change of it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runCodegen } from '../cli.ts';
import {
  ACKNOWLEDGEMENTS_FILE,
  acknowledges,
  addedEntries,
  parseAcknowledgements,
  type Acknowledgement,
  type AcknowledgementFile,
} from './acknowledgements.ts';
import type { Io } from './cli.ts';
import { diffSpecs, type Change } from './diff.ts';
import { render } from './format.ts';
import { InputError, loadSpec } from './load.ts';

const usage = `Usage: npm run api:check -- [--base <ref>] [--main <branch>] [--format text|markdown|github] [--no-codegen-check]

1. codegen --check (generated/ and clients/ must match tools.yaml)
2. OpenAPI diff of generated/openapi.json over the commits this checkout adds:
   --base <ref> (or API_CHECK_BASE) -> working tree; else merge-base with <main> -> working tree;
   on main itself, every first-parent step since checked-since of api-changes.yaml
3. exit 1 when a breaking (ERR) change is not acknowledged by an entry of api-changes.yaml added in
   the same range, or when such an entry matches no change

Options:
  --base <ref>          the git revision to compare with (default: the merge base with <main>)
  --main <branch>       the main branch (default: main, else origin/main)
  --root <dir>          the project folder (default: the current folder)
  --format <format>     how to print the diff: text (default), markdown, github
  --no-codegen-check    skip step 1 (when the caller has just run it)`;

const consoleIo: Io = { out: (text) => console.log(text), err: (text) => console.error(text) };

const SPEC = 'generated/openapi.json';
/** The working tree as the end of a range. */
const WORKTREE = null;

interface Range {
  from: string;
  /** A commit, or null for the working tree. */
  to: string | null;
}

class GitError extends Error {}

function gitText(args: string[], cwd: string, trim = true): string | undefined {
  try {
    const text = execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
    return trim ? text.trim() : text;
  } catch {
    return undefined;
  }
}

function commitOf(ref: string, cwd: string): string | undefined {
  return gitText(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], cwd);
}

/** The blob id of `path` at `commit`, or undefined when the file does not exist there. */
function blobAt(commit: string, path: string, cwd: string): string | undefined {
  return gitText(['rev-parse', '--verify', '--quiet', `${commit}:${path}`], cwd);
}

function textAt(end: string | null, path: string, root: string): string | undefined {
  if (end === WORKTREE) return existsSync(join(root, path)) ? readFileSync(join(root, path), 'utf8') : undefined;
  return blobAt(end, path, root) === undefined ? undefined : gitText(['show', `${end}:${path}`], root, false);
}

function short(commit: string): string {
  return commit.slice(0, 12);
}

function label(end: string | null): string {
  return end === WORKTREE ? 'working tree' : short(end);
}

function acknowledgementsAt(end: string | null, root: string): AcknowledgementFile {
  const text = textAt(end, ACKNOWLEDGEMENTS_FILE, root);
  return text === undefined
    ? { entries: [] }
    : parseAcknowledgements(text, end === WORKTREE ? ACKNOWLEDGEMENTS_FILE : `${ACKNOWLEDGEMENTS_FILE} (at ${short(end)})`);
}

/** Picks the ranges to check, telling `io` what a shallow clone leaves out; throws GitError with a message for the user when it cannot. */
function planRanges(root: string, base: string | undefined, main: string | undefined, io: Io): { ranges: Range[]; why: string } {
  const head = commitOf('HEAD', root);
  if (head === undefined) return { ranges: [], why: 'there is no commit yet' };
  if (base !== undefined) {
    const from = commitOf(base, root);
    if (from === undefined) throw new GitError(`--base ${base} is not a commit of this repository.`);
    return { ranges: [{ from, to: WORKTREE }], why: `--base ${base}` };
  }
  const mainRef = main ?? ['main', 'origin/main'].find((ref) => commitOf(ref, root) !== undefined);
  if (main !== undefined && commitOf(main, root) === undefined) {
    throw new GitError(`there is no branch ${main} to compare with; pass --main <branch> or --base <ref>.`);
  }
  // A checkout with no main branch at all (a CI clone of main's commits under another name, or detached) is treated as main itself.
  const mergeBase = mainRef === undefined ? head : gitText(['merge-base', 'HEAD', mainRef], root);
  if (mergeBase === undefined) throw new GitError(`HEAD and ${mainRef} have no common commit (a shallow clone? fetch more history or pass --base).`);
  if (mergeBase !== head) return { ranges: [{ from: mergeBase, to: WORKTREE }], why: `the merge base with ${mainRef}` };

  // On main: every first-parent step since the recorded commit, so no step is skipped.
  const since = acknowledgementsAt(WORKTREE, root).checkedSince;
  let sinceCommit: string | undefined;
  if (since !== undefined) {
    sinceCommit = commitOf(since, root);
    const shallow = gitText(['rev-parse', '--is-shallow-repository'], root) === 'true';
    if (sinceCommit === undefined && shallow) {
      // A shallow clone (as some CI systems make) does not reach back that far: check the steps it has, and say so.
      io.out(`api:check: this shallow clone does not reach checked-since ${since}; checking the first-parent steps it holds.`);
    } else if (sinceCommit === undefined || gitText(['merge-base', '--is-ancestor', sinceCommit, head], root) === undefined) {
      throw new GitError(`checked-since ${since} of ${ACKNOWLEDGEMENTS_FILE} is not a commit before HEAD (fetch more history or pass --base).`);
    }
  }
  const commits = gitText(['rev-list', '--first-parent', '--reverse', sinceCommit ? `${sinceCommit}..HEAD` : 'HEAD'], root)!
    .split('\n')
    .filter(Boolean);
  const ranges: Range[] = [];
  for (const commit of commits) {
    const parent = commitOf(`${commit}^1`, root);
    if (parent === undefined) {
      if (gitText(['rev-parse', '--is-shallow-repository'], root) === 'true') {
        io.out(`api:check: this shallow clone ends at ${short(commit)}; the step into it is not checked.`);
      }
      continue; // the first commit (or the shallow end): nothing before it here
    }
    const touched = [SPEC, ACKNOWLEDGEMENTS_FILE].some((path) => blobAt(parent, path, root) !== blobAt(commit, path, root));
    if (touched) ranges.push({ from: parent, to: commit });
  }
  const worktreeChanged = [SPEC, ACKNOWLEDGEMENTS_FILE].some((path) => textAt(WORKTREE, path, root) !== textAt(head, path, root));
  if (worktreeChanged) ranges.push({ from: head, to: WORKTREE });
  return { ranges, why: `every first-parent step of ${mainRef ?? 'HEAD'}${since ? ` since ${since}` : ''}` };
}

interface RangeResult {
  unacknowledged: Change[];
  stale: Acknowledgement[];
  breaking: number;
}

function checkRange(range: Range, root: string, format: 'text' | 'markdown' | 'github', io: Io): RangeResult {
  const fromSpec = `${range.from}:${SPEC}`;
  const toSpec = range.to === WORKTREE ? SPEC : `${range.to}:${SPEC}`;
  let changes: Change[] = [];
  if (blobAt(range.from, SPEC, root) !== undefined && textAt(range.to, SPEC, root) !== undefined) {
    changes = diffSpecs(loadSpec(fromSpec, root), loadSpec(toSpec, root));
    io.out(
      render(
        {
          base: `${short(range.from)}:${SPEC}`,
          revision: range.to === WORKTREE ? SPEC : `${short(range.to)}:${SPEC}`,
          changes,
          ...(range.to === WORKTREE ? { file: SPEC } : {}),
        },
        format,
      ),
    );
  }
  const added = addedEntries(acknowledgementsAt(range.from, root).entries, acknowledgementsAt(range.to, root).entries);
  const breaking = changes.filter((change) => change.level === 'ERR');
  return {
    unacknowledged: breaking.filter((change) => !added.some((ack) => acknowledges(ack, change))),
    stale: added.filter((ack) => !changes.some((change) => acknowledges(ack, change))),
    breaking: breaking.length,
  };
}

export function runApiCheck(argv: string[], io: Io = consoleIo, env: NodeJS.ProcessEnv = process.env): number {
  let values;
  try {
    values = parseArgs({
      args: argv,
      options: {
        base: { type: 'string' },
        main: { type: 'string' },
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
  if (!values['no-codegen-check']) {
    const code = runCodegen(['--check', '--manifest', join(root, 'tools.yaml'), '--out', join(root, 'generated'), '--clients', join(root, 'clients')]);
    if (code !== 0) {
      io.err('api:check: failed at codegen --check (see above).');
      return 1;
    }
  }
  try {
    const { ranges, why } = planRanges(root, values.base ?? (env.API_CHECK_BASE || undefined), values.main, io);
    if (ranges.length === 0) {
      io.out(`api:check: nothing to compare (${why}): neither ${SPEC} nor ${ACKNOWLEDGEMENTS_FILE} changed; passing.`);
      return 0;
    }
    const failures: string[] = [];
    let breaking = 0;
    for (const range of ranges) {
      const span = `${short(range.from)} -> ${label(range.to)}`;
      const result = checkRange(range, root, format, io);
      breaking += result.breaking;
      for (const change of result.unacknowledged) {
        failures.push(
          `breaking change in ${span} not acknowledged in ${ACKNOWLEDGEMENTS_FILE}:` +
            `\n    rule: ${change.id}\n    operation: ${change.operation ?? 'null'}\n    path: "${change.path}"\n    change: ${change.message}`,
        );
      }
      for (const ack of result.stale) {
        const file = range.to === WORKTREE ? ACKNOWLEDGEMENTS_FILE : `${ACKNOWLEDGEMENTS_FILE} (at ${short(range.to)})`;
        failures.push(
          `${file}:${ack.line}: acknowledgement (rule ${ack.rule}, operation ${ack.operation ?? 'null'}, path ${ack.path}) ` +
            `matches no change in ${span}; remove it or correct it`,
        );
      }
    }
    if (failures.length > 0) {
      io.err(
        `api:check: FAILED (compared with ${why}):` +
          failures.map((failure) => `\n  - ${failure}`).join('') +
          `\nAn intended break is acknowledged by adding, in the same commit or branch, an entry with the rule, operation, path and a reason under \`acknowledged:\` in ${ACKNOWLEDGEMENTS_FILE}.`,
      );
      return 1;
    }
    io.out(
      breaking === 0
        ? `api:check: passed (compared with ${why}): no breaking change.`
        : `api:check: passed (compared with ${why}): ${breaking} breaking change${breaking === 1 ? '' : 's'}, each acknowledged in ${ACKNOWLEDGEMENTS_FILE}.`,
    );
    return 0;
  } catch (error) {
    if (error instanceof InputError || error instanceof GitError) {
      io.err(`api:check: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = runApiCheck(process.argv.slice(2));
}
