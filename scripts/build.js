// @ts-check
/**
 * How the server is bundled, in one place: `npm run build` writes dist/ with it, `npm start` and
 * `npm run admin` first rebuild dist/ when it is missing or older than a file it was made from (so
 * `npm install && npm start` works on a fresh clone, and after `git pull`), and the server processes
 * of the tests and the benchmark bundle their entries with it too (test/support/processes.ts).
 *
 * Plain JavaScript run by plain `node`, and esbuild is a dependency, not a devDependency: an install
 * without devDependencies (`npm ci --omit=dev`) can build and start the server. No TypeScript loader
 * runs in production.
 *
 * Each bundled module keeps its own place for `import.meta.url`: a file the sources read beside
 * themselves (the web pages of /docs and /account) is found in src/ as under a loader, relative to
 * the bundle, so the checkout can move with dist/ inside it. Packages are bundled too (loading one
 * file is what makes a start cheap), except those below.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT = fileURLToPath(new URL('../', import.meta.url));
export const DIST = path.join(PROJECT, 'dist');

/** What dist/ holds: each entry of the sources and the file it is bundled to (`npm start` runs dist/main.js). */
export const DIST_ENTRIES = [
  { source: 'src/main.ts', output: 'main.js' },
  { source: 'src/admin/cli.ts', output: 'admin.js' },
];

/** The figure render threads' entry: each server bundle starts its threads from this bundle beside it. */
export const RENDER_WORKER = path.join(PROJECT, 'src/figures/render-worker.ts');
const RENDER_WORKER_OUTPUT = 'render-worker.js';
/** The module that starts the render threads, and how it names their entry (replaced by the bundle's). */
const WORKER_RENDERER = path.join(PROJECT, 'src/figures/worker-renderer.ts');
const RENDER_WORKER_REFERENCE = "new URL('./render-worker.ts', import.meta.url)";

/** Native addons, knex (it requires its database driver by name), and packages that read files or start workers relative to their own modules. */
export const UNBUNDLED_PACKAGES = ['better-sqlite3', '@resvg/resvg-js', 'knex', 'mysql2', 'ioredis', 'pino', 'thread-stream', 'sync-fetch'];

/** What dist/ was made from and when: `--if-stale` rebuilds when any of these changed since. */
const BUILD_RECORD = path.join(DIST, 'build.json');
/** Besides the bundled files: the build itself, and the installed packages (npm rewrites its lock file on every install). */
const ALSO_BUILT_FROM = ['scripts/build.js', 'package.json', 'package-lock.json', 'node_modules/.package-lock.json'];

/**
 * A relative URL (always starting with ./ or ../) from folder `from` to file or folder `to`.
 * @param {string} from
 * @param {string} to
 */
function relativeUrl(from, to) {
  const relative = path.relative(from, to).split(path.sep).map(encodeURIComponent).join('/');
  return relative.startsWith('../') ? relative : `./${relative}`;
}

/**
 * The bundle with every character beyond ASCII written as a \u escape. V8 keeps a script's source in
 * the heap for as long as the script lives (functions are compiled from it lazily), and one such
 * character anywhere (a dash in a comment of a package) makes it keep all of it at two bytes per
 * character: the server's 8 MB bundle took 16 MB of the heap, a third of all it held (8 MB since).
 * An escape means the same character in a string, a regular expression, a template, an identifier
 * or a comment, but not in a String.raw template, whose text is taken as written: there the source
 * must use the escape.
 *
 * @param {string} text
 * @param {string} file
 */
function asciiOnly(text, file) {
  const raw = [...text.matchAll(/String\.raw`[^`]*`/g)].find(([template]) => /[^\u0000-\u007f]/.test(template));
  if (raw) throw new Error(`${file}: a String.raw template holds a character beyond ASCII; write it as a \\u escape: ${raw[0].slice(0, 120)}`);
  // A backslash right before the character escaped it (`\é` is `é`): the \u escape replaces both.
  return text.replace(/(\\*)([^\u0000-\u007f])/g, (_, backslashes, character) => {
    return `${backslashes.slice(backslashes.length % 2)}\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/**
 * @param {string} entry the entry's source file
 * @param {string} outfile where its bundle goes
 * @param {string | undefined} renderWorkerFile the render threads' bundle, when the entry may start them
 * @returns {import('esbuild').Plugin}
 */
function sourceModuleUrls(entry, outfile, renderWorkerFile) {
  const outdir = path.dirname(outfile);
  return {
    name: 'source-module-urls',
    setup(builder) {
      // A package's JSON file is bundled (an external JSON import would lose its `with { type: 'json' }`).
      builder.onResolve({ filter: /^[^./].*\.json$/ }, ({ path: specifier, importer }) => ({ path: createRequire(importer).resolve(specifier) }));
      builder.onLoad({ filter: /\.ts$/ }, async ({ path: file }) => {
        let source = await readFile(file, 'utf8');
        if (file === entry) return { contents: source, loader: 'ts' }; // the entry keeps the bundle's URL, as `node entry` would
        if (file === WORKER_RENDERER && renderWorkerFile) {
          if (!source.includes(RENDER_WORKER_REFERENCE)) throw new Error(`${file} no longer says ${RENDER_WORKER_REFERENCE}: update scripts/build.js`);
          source = source.replace(RENDER_WORKER_REFERENCE, `new URL(${JSON.stringify(relativeUrl(path.dirname(file), renderWorkerFile))}, import.meta.url)`);
        }
        // The module's own URL, found from the bundle's at run time.
        const ownUrl = `new URL(${JSON.stringify(relativeUrl(outdir, file))}, import.meta.url).href`;
        return { contents: source.replaceAll('import.meta.url', ownUrl), loader: 'ts' };
      });
    },
  };
}

/**
 * Bundles `entry` (a TypeScript file) into one ES module at `outfile`, with `renderWorkerFile` as
 * the render threads' entry; writes it whole or not at all (a process starting meanwhile reads the
 * old bundle or the new one). Returns the files it was made from, relative to the project.
 *
 * @param {{ entry: string; outfile: string; renderWorkerFile?: string }} options
 * @returns {Promise<string[]>}
 */
export async function bundle({ entry, outfile, renderWorkerFile }) {
  const source = path.resolve(PROJECT, entry);
  // Loaded only when something is built: `--if-stale` on a fresh dist/ starts nothing more.
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [source],
    outfile,
    absWorkingDir: PROJECT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: UNBUNDLED_PACKAGES,
    // Bundled CommonJS packages call require() for Node's own modules.
    banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
    logLevel: 'error',
    metafile: true,
    write: false,
    plugins: [sourceModuleUrls(source, outfile, renderWorkerFile)],
  });
  mkdirSync(path.dirname(outfile), { recursive: true });
  for (const output of result.outputFiles) {
    const partial = `${output.path}.${process.pid}.partial`;
    writeFileSync(partial, asciiOnly(output.text, output.path));
    renameSync(partial, output.path);
  }
  // An input imported with attributes is named with them (`file.json with { type: 'json' }`).
  return Object.keys(result.metafile.inputs).map((input) => input.replace(/ with \{.*\}$/, ''));
}

/** Writes dist/: the server, the admin CLI and the render threads' entry, and what they were made from. */
export async function buildDist() {
  const startedAt = Date.now();
  const renderWorkerFile = path.join(DIST, RENDER_WORKER_OUTPUT);
  const inputs = new Set(await bundle({ entry: RENDER_WORKER, outfile: renderWorkerFile }));
  for (const { source, output } of DIST_ENTRIES) {
    for (const input of await bundle({ entry: source, outfile: path.join(DIST, output), renderWorkerFile })) inputs.add(input);
  }
  const alsoBuiltFrom = ALSO_BUILT_FROM.filter((file) => existsSync(path.join(PROJECT, file)));
  const record = { startedAt, outputs: [RENDER_WORKER_OUTPUT, ...DIST_ENTRIES.map(({ output }) => output)], inputs: [...alsoBuiltFrom, ...[...inputs].sort()] };
  writeFileSync(`${BUILD_RECORD}.${process.pid}.partial`, `${JSON.stringify(record, null, 1)}\n`);
  renameSync(`${BUILD_RECORD}.${process.pid}.partial`, BUILD_RECORD);
}

/** Why dist/ must be built again, or undefined when every file it was made from is older than it. */
export function staleReason() {
  let record;
  try {
    record = JSON.parse(readFileSync(BUILD_RECORD, 'utf8'));
  } catch {
    return 'dist/ has not been built';
  }
  const modified = (/** @type {string} */ file) => {
    try {
      return statSync(path.join(PROJECT, file)).mtimeMs;
    } catch {
      return undefined;
    }
  };
  const missing = record.outputs.find((/** @type {string} */ output) => modified(path.join('dist', output)) === undefined);
  if (missing) return `dist/${missing} is missing`;
  const changed = record.inputs.find((/** @type {string} */ input) => (modified(input) ?? Infinity) > record.startedAt);
  return changed ? `${changed} changed since the last build` : undefined;
}

/** `node scripts/build.js [--if-stale] [--quiet]`. */
async function main() {
  const ifStale = process.argv.includes('--if-stale');
  const reason = staleReason();
  if (ifStale && !reason) return;
  const started = Date.now();
  await buildDist();
  // On stderr, and not at all with --quiet: `npm run --silent admin` prints only the command's JSON.
  if (!process.argv.includes('--quiet'))
    process.stderr.write(`built dist/${ifStale ? ` (${reason})` : ''} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

// No top-level await: the test harness imports this module, and mocha loads test files with
// require() where it can, which fails on a module graph with top-level await (and then loads them a
// second way, giving the test hooks other copies of the modules they share state through).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
