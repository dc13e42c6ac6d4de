/**
 * Server processes started as an operator starts them (the real entry, its environment, SIGTERM to
 * stop), each on its own loopback port. The entry is bundled once per test process with esbuild
 * (with the packages it can carry; each module keeps its own import.meta.url, so files beside the
 * sources are found as under tsx) and run with plain node: a start then costs about a third of the
 * CPU of loading every module through tsx, and the suites start some sixty servers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { SERVER_NODE_FLAGS } from '../../src/node-flags.ts';
import { removeAtExit } from './remove-at-exit.ts';

const BUNDLES = fileURLToPath(new URL('../../node_modules/.cache/test-server-processes/', import.meta.url));
const bundles = new Map<string, Promise<string>>();
/** Native addons, knex (it requires its database driver by name), and packages that read files or start workers relative to __dirname. */
const UNBUNDLED_PACKAGES = ['better-sqlite3', '@resvg/resvg-js', 'knex', 'mysql2', 'ioredis', 'pino', 'thread-stream', 'sync-fetch'];

/** The render threads' entry, bundled too and started from its bundle: through tsx a thread costs about twice the CPU to start. */
const RENDER_WORKER = fileURLToPath(new URL('../../src/figures/render-worker.ts', import.meta.url));
const WORKER_RENDERER = fileURLToPath(new URL('../../src/figures/worker-renderer.ts', import.meta.url));
const RENDER_WORKER_REFERENCE = "new URL('./render-worker.ts', import.meta.url)";

/**
 * Gives every module but the entry its source file's URL as import.meta.url (the entry keeps the
 * bundle's, as `node entry` would), points the worker renderer at the bundled render worker, and
 * bundles the JSON files of packages (an external JSON import would lose its `with { type: 'json' }`).
 */
function sourceModuleUrls(entry: string, renderWorkerBundle: string | undefined): Plugin {
  return {
    name: 'source-module-urls',
    setup(builder) {
      builder.onResolve({ filter: /^[^./].*\.json$/ }, ({ path: specifier, importer }) => ({ path: createRequire(importer).resolve(specifier) }));
      builder.onLoad({ filter: /\.ts$/ }, async ({ path: file }) => {
        const source = await readFile(file, 'utf8');
        if (file === WORKER_RENDERER && renderWorkerBundle) {
          if (!source.includes(RENDER_WORKER_REFERENCE)) throw new Error(`${file} no longer says ${RENDER_WORKER_REFERENCE}: update test/support/processes.ts`);
          return { contents: source.replace(RENDER_WORKER_REFERENCE, `new URL(${JSON.stringify(pathToFileURL(renderWorkerBundle).href)})`), loader: 'ts' };
        }
        const contents = file === entry ? source : source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href));
        return { contents, loader: 'ts' };
      });
    },
  };
}

/** The entry bundled into one ES module under node_modules/.cache (so that its packages resolve from the project), once per test process. */
function bundled(entry: string): Promise<string> {
  const source = path.resolve(entry);
  let done = bundles.get(source);
  if (!done) {
    mkdirSync(BUNDLES, { recursive: true });
    const outfile = path.join(BUNDLES, `${path.basename(source, '.ts')}-${process.pid}-${bundles.size}.mjs`);
    done = (source === RENDER_WORKER ? Promise.resolve(undefined) : bundled(RENDER_WORKER))
      .then((renderWorkerBundle) =>
        build({
          entryPoints: [source],
          outfile,
          bundle: true,
          platform: 'node',
          format: 'esm',
          target: 'node20',
          // Packages are bundled too (loading one file is what saves the time), except those that find
          // files beside their own modules at run time, or load native code or drivers by name.
          external: UNBUNDLED_PACKAGES,
          // Bundled CommonJS packages call require() for Node's own modules.
          banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
          logLevel: 'error',
          plugins: [sourceModuleUrls(source, renderWorkerBundle)],
        }),
      )
      .then(() => {
        removeAtExit(outfile);
        return outfile;
      });
    bundles.set(source, done);
  }
  return done;
}

export interface ServerProcess {
  baseUrl: string;
  /** The process id, for reading its memory from /proc/<pid>/status. */
  pid: number;
  /** Stops it as an operator would (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Sends `signal` (by default SIGKILL: a crash) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts `entry` with the environment an operator would give it; `nodeFlags` are the Node/V8 flags
 * (by default the server's own, as `npm start` passes them; the benchmark's bare baselines run without).
 */
export async function startServerProcess(
  entry: string,
  env: Record<string, string>,
  { nodeFlags = SERVER_NODE_FLAGS }: { nodeFlags?: readonly string[] } = {},
): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [...nodeFlags, await bundled(entry)], {
    // The loopback peer is trusted as a proxy: test clients give their address in X-Forwarded-For.
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', TRUSTED_PROXIES: 'loopback', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const entryLine = JSON.parse(line) as { msg?: string; port?: number };
        if (entryLine.msg?.startsWith('listening')) {
          // From here on the output is drained unread, so a busy server costs its reader nothing.
          lines.close();
          child.stdout!.resume();
          resolve(entryLine.port!);
        }
      } catch {
        // not a log line (for example the first-start banner)
      }
    });
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}: ${stderr}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () => kill('SIGTERM'),
    kill,
  };

  function kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    return new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }
}
