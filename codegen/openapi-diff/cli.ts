/**
 * npm run openapi:diff -- <base> <revision> [--format text|markdown|json|github] [--fail-on ERR|WARN]
 *
 * Each side is a file (JSON or YAML) or a git blob `<ref>:<path>`. Exit 0 when no change reaches the
 * --fail-on level (default ERR), 1 when one does, 2 when an input cannot be used.
 */
import { parseArgs } from 'node:util';
import { diffSpecs } from './diff.ts';
import { FORMATS, render, type Format } from './format.ts';
import { InputError, loadSpec } from './load.ts';
import { levelRank, type Level } from './rules.ts';

const usage = `Usage: npm run openapi:diff -- <base> <revision> [--format text|markdown|json|github] [--fail-on ERR|WARN]

Reports every change between two OpenAPI 3.0/3.1 documents with a rule id, a level (ERR breaking,
WARN possibly breaking, INFO not breaking), the operation and the JSON path.

<base>, <revision>   a file, or a git blob <ref>:<path> (for example HEAD~1:generated/openapi.json)
--format             text (default), markdown, json, github (Actions annotations)
--fail-on            exit 1 when a change at this level or above exists: ERR (default) or WARN
Exit codes: 0 clean, 1 changes at or above --fail-on, 2 unusable input.`;

export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
}

const consoleIo: Io = { out: (text) => console.log(text), err: (text) => console.error(text) };

export function atOrAbove(level: Level, threshold: Level): boolean {
  return levelRank(level) >= levelRank(threshold);
}

export function runDiff(argv: string[], io: Io = consoleIo, cwd = process.cwd()): number {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: 'string', default: 'text' },
        'fail-on': { type: 'string', default: 'ERR' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    io.err(`openapi:diff: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(usage);
    return 0;
  }
  const format = values.format as Format;
  const failOn = String(values['fail-on']).toUpperCase() as Level;
  if (positionals.length !== 2 || !FORMATS.includes(format) || (failOn !== 'ERR' && failOn !== 'WARN')) {
    io.err(
      `openapi:diff: ${
        positionals.length !== 2
          ? 'give exactly two documents, <base> and <revision>'
          : !FORMATS.includes(format)
            ? `unknown --format ${format}`
            : `--fail-on must be ERR or WARN, not ${values['fail-on']}`
      }\n\n${usage}`,
    );
    return 2;
  }
  const [baseSpec, revisionSpec] = positionals as [string, string];
  try {
    const base = loadSpec(baseSpec, cwd);
    const revision = loadSpec(revisionSpec, cwd);
    const changes = diffSpecs(base, revision);
    io.out(render({ base: baseSpec, revision: revisionSpec, changes, ...(revision.file ? { file: revision.file } : {}) }, format));
    return changes.some((change) => atOrAbove(change.level, failOn)) ? 1 : 0;
  } catch (error) {
    if (error instanceof InputError) {
      io.err(`openapi:diff: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = runDiff(process.argv.slice(2));
}
