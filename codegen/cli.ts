/**
 * npm run codegen                 regenerate generated/ and clients/ from tools.yaml
 * npm run codegen -- --check      exit 1 and name every stale file when generated/ or clients/ is out of date
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generate, generateClients } from './generate.ts';
import { connectorExportIssues } from './manifest/connector-exports.ts';
import { loadManifest } from './manifest/load.ts';
import { ManifestError } from './manifest/issues.ts';
import type { Manifest } from './manifest/types.ts';

const usage = `Usage: npm run codegen -- [--check] [--manifest <file>] [--out <dir>] [--clients <dir>]

Reads the tool manifest and writes the generated files (mcp-tools.json, openapi.json, types.ts, tools.ts, routes.ts)
and the TypeScript and Python clients (clients/typescript, clients/python).

Options:
  --check            write nothing; exit 1 and list every file that differs from what codegen would write
  --manifest <file>  the manifest to read (default: tools.yaml)
  --out <dir>        the folder to write (default: generated)
  --clients <dir>    the folder to write the clients to (default: clients)
  -h, --help         show this help`;

/** What building or installing a client leaves beside its files (ignored by git too): never reported as stale. */
const BUILD_LEFTOVERS = /(^|\/)(node_modules|__pycache__|build|[^/]*\.egg-info|\.mypy_cache|\.pytest_cache|\.ruff_cache)(\/|$)|^python\/dist\//;

/** Every file under `folder`, as paths relative to it, leaving out build leftovers. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => name.split('\\').join('/'))
    .filter((name) => !BUILD_LEFTOVERS.test(name) && statSync(join(folder, name)).isFile());
}

/** Files that are missing, differ, or should not be there. */
export function staleFiles(expected: Map<string, string>, outDir: string): string[] {
  const stale: string[] = [];
  for (const [name, text] of expected) {
    const path = join(outDir, name);
    if (!existsSync(path)) stale.push(`${path} (missing)`);
    else if (readFileSync(path, 'utf8') !== text) stale.push(`${path} (differs)`);
  }
  if (existsSync(outDir)) {
    for (const name of filesUnder(outDir)) {
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
        clients: { type: 'string', default: 'clients' },
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
  const clientsDir = resolve(options.clients);
  let files;
  let clientFiles;
  try {
    const projectRoot = dirname(resolve(options.manifest));
    // upstream.calls[].function must be exported by src/connectors/<source>.ts beside the manifest
    // (a manifest in a folder without connectors, as in the gate's tests, is checked on its own)
    const more = existsSync(join(projectRoot, 'src', 'connectors')) ? (manifest: Manifest) => connectorExportIssues(manifest, projectRoot) : undefined;
    const manifest = loadManifest(resolve(options.manifest), more ? { more } : {});
    files = generate(manifest);
    clientFiles = generateClients(manifest);
  } catch (error) {
    if (error instanceof ManifestError) {
      console.error(`codegen: the manifest is not valid; nothing was written.\n${error.message}`);
      return 1;
    }
    throw error;
  }
  if (options.check) {
    const stale = [...staleFiles(files, outDir), ...staleFiles(clientFiles, clientsDir)].sort();
    if (stale.length > 0) {
      console.error(
        `codegen --check: generated files are not up to date with ${options.manifest}:\n` +
          stale.map((file) => `  ${file}`).join('\n') +
          '\nRun `npm run codegen` and commit the result.',
      );
      return 1;
    }
    console.log(`codegen --check: ${files.size + clientFiles.size} generated files are up to date.`);
    return 0;
  }
  const written: string[] = [];
  for (const [folder, shown, output] of [
    [outDir, options.out, files],
    [clientsDir, options.clients, clientFiles],
  ] as const) {
    for (const [name, text] of output) {
      mkdirSync(dirname(join(folder, name)), { recursive: true });
      writeFileSync(join(folder, name), text);
      written.push(join(shown, name));
    }
  }
  console.log(`codegen: wrote ${written.join(', ')}`);
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = runCodegen(process.argv.slice(2));
}
