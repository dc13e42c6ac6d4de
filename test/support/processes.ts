/** Server processes started the way an operator starts them, each on its own loopback port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ServerProcess {
  baseUrl: string;
  /** The process id, for reading its memory from /proc/<pid>/status. */
  pid: number;
  /** Stops it as an operator would (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Sends `signal` (by default SIGKILL: a crash) and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

export async function startServerProcess(entry: string, env: Record<string, string>): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', entry], {
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
