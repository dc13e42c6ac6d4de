/** Server processes started the way an operator starts them, each on its own loopback port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ServerProcess {
  baseUrl: string;
  /** SIGTERM, then the process's exit. */
  stop(): Promise<void>;
  /** Sends `signal` (SIGKILL: a crash) and waits for the exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

export async function startServerProcess(entry: string, env: Record<string, string>): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
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
    stop: () => kill('SIGTERM'),
    kill,
  };

  function kill(signal: NodeJS.Signals): Promise<void> {
    return new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }
}
