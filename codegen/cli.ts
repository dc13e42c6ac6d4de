/**
 * npm run codegen                 regenerate generated/ from tools.yaml
 * npm run codegen -- --check      exit 1 and name every stale file when generated/ is out of date
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generate } from './generate.ts';
import { connectorExportIssues } from './manifest/connector-exports.ts';
import { loadManifest } from './manifest/load.ts';
import { ManifestError } from './manifest/issues.ts';
import type { Manifest } from './manifest/types.ts';

const usage = `Usage: npm run codegen -- [--check] [--manifest <file>] [--out <dir>]

Reads the tool manifest and writes the generated files (mcp-tools.json, openapi.json, types.ts, tools.ts, routes.ts).

Options:
  --check            write nothing; exit 1 and list every file that differs from what codegen would write
  --manifest <file>  the manifest to read (default: tools.yaml)
  --out <dir>        the folder to write (default: generated)
  -h, --help         show this help`;

/** Files that are missing, differ, or should not be there. */
export function staleFiles(expected: Map<string, string>, outDir: string): string[] {
  const stale: string[] = [];
  for (const [name, text] of expected) {
    const path = join(outDir, name);
    if (!existsSync(path)) stale.push(`${path} (missing)`);
    else if (readFileSync(path, 'utf8') !== text) stale.push(`${path} (differs)`);
  }
  if (existsSync(outDir)) {
    for (const name of readdirSync(outDir)) {
      if (!expected.has(name)) stale.push(`${join(outDir, name)} (not generated from the manifest)`);
    }
  }
  return stale.sort();
}

export function runCodegen(argv: string[]): number {
  let options;
  try {
    options = parseArgs({
      args: argv,
      options: {
        check: { type: 'boolean', default: false },
        manifest: { type: 'string', default: 'tools.yaml' },
        out: { type: 'string', default: 'generated' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    console.error(`codegen: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (options.help) {
    console.log(usage);
    return 0;
  }
  const outDir = resolve(options.out);
  let files;
  try {
    const projectRoot = dirname(resolve(options.manifest));
    // upstream.calls[].function must be exported by src/connectors/<source>.ts beside the manifest
    // (a manifest in a folder without connectors, as in the gate's tests, is checked on its own)
    const more = existsSync(join(projectRoot, 'src', 'connectors')) ? (manifest: Manifest) => connectorExportIssues(manifest, projectRoot) : undefined;
    files = generate(loadManifest(resolve(options.manifest), more ? { more } : {}));
  } catch (error) {
    if (error instanceof ManifestError) {
      console.error(`codegen: the manifest is not valid; nothing was written.\n${error.message}`);
      return 1;
    }
    throw error;
  }
  if (options.check) {
    const stale = staleFiles(files, outDir);
    if (stale.length > 0) {
      console.error(
        `codegen --check: generated files are not up to date with ${options.manifest}:\n` +
          stale.map((file) => `  ${file}`).join('\n') +
          '\nRun `npm run codegen` and commit the result.',
      );
      return 1;
    }
    console.log(`codegen --check: ${files.size} generated files are up to date.`);
    return 0;
  }
  mkdirSync(outDir, { recursive: true });
  for (const [name, text] of files) writeFileSync(join(outDir, name), text);
  console.log(`codegen: wrote ${[...files.keys()].map((name) => join(options.out, name)).join(', ')}`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = runCodegen(process.argv.slice(2));
}
