/**
 * Server processes started as an operator starts them (the real entry, its environment, SIGTERM to
 * stop), each on its own loopback port. The entry is bundled once per test process as `npm run build`
 * bundles the server (scripts/build.js) and run with plain node: a start then costs about a third of
 * the CPU of loading every module through tsx, and the suites start some sixty servers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { bundle, RENDER_WORKER } from '../../scripts/build.js';
import { SERVER_NODE_FLAGS } from '../../src/node-flags.ts';
import { removeAtExit } from './remove-at-exit.ts';

const BUNDLES = fileURLToPath(new URL('../../node_modules/.cache/test-server-processes/', import.meta.url));
const bundles = new Map<string, Promise<string>>();
let renderWorkerBundle: Promise<string> | undefined;
let bundlesMade = 0;

/** A bundle of this test process under node_modules/.cache (so that its packages resolve from the project), removed when it exits. */
async function bundleOnce(entry: string, renderWorkerFile?: string): Promise<string> {
  const outfile = path.join(BUNDLES, `${path.basename(entry, '.ts')}-${process.pid}-${bundlesMade++}.mjs`);
  removeAtExit(outfile);
  await bundle({ entry, outfile, renderWorkerFile });
  return outfile;
}

/** The entry bundled, with the render threads' entry bundled beside it, once per test process. */
function bundled(entry: string): Promise<string> {
  const source = path.resolve(entry);
  let done = bundles.get(source);
  if (!done) {
    renderWorkerBundle ??= bundleOnce(RENDER_WORKER);
    done = renderWorkerBundle.then((renderWorkerFile) => bundleOnce(source, renderWorkerFile));
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
  /** The last ERROR_LINES_KEPT log lines at level error or fatal (a test names them when an answer is a 500). */
  errorLines(): string[];
}

/** Error lines of a server's log kept for a test's messages. */
const ERROR_LINES_KEPT = 20;
/** pino's levels error (50) and fatal (60), as they appear in a JSON line. */
const ERROR_LEVEL = /"level":[56]0/;

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
  const errorLines: string[] = [];
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const entryLine = JSON.parse(line) as { msg?: string; port?: number };
        if (entryLine.msg?.startsWith('listening')) {
          // From here on the output is drained, and only a chunk holding an error line is read: a busy server costs its reader little.
          lines.close();
          child.stdout!.on('data', keepErrorLines).resume();
          resolve(entryLine.port!);
        }
      } catch {
        // not a log line
      }
    });
    child.once('exit', (code) => reject(new Error(`server process exited with ${code}: ${stderr}`)));
  });
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () => kill('SIGTERM'),
    kill,
    errorLines: () => [...errorLines],
  };

  /** Reads a chunk of the log only when it holds an error line (a line cut between chunks is kept in part). */
  function keepErrorLines(chunk: Buffer): void {
    if (!chunk.includes('"level":50') && !chunk.includes('"level":60')) return;
    for (const line of String(chunk).split('\n')) if (ERROR_LEVEL.test(line)) errorLines.push(line);
    errorLines.splice(0, errorLines.length - ERROR_LINES_KEPT);
  }

  function kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    return new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }
}
