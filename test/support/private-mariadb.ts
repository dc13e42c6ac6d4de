/**
 * A MariaDB server of the test's own, so that a test can kill it and start it again: its own data
 * folder (made by mariadb-install-db in a temporary folder), a spare port on 127.0.0.1, its socket
 * in that folder, root without a password, small InnoDB files. `stop` kills it and removes the folder
 * (also removed when the test process exits).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { removeAtExit } from './remove-at-exit.ts';

const SERVER = 'mariadbd';
const INSTALL = 'mariadb-install-db';
/** Small files: a fresh data folder of about 20 MB instead of 110, made in a few seconds. */
const SMALL_INNODB = ['--innodb-log-file-size=4M', '--innodb-buffer-pool-size=16M'];
const START_TIMEOUT_MS = 30_000;

/** Why no private MariaDB can be started here (its programs are not installed), or undefined when it can. */
export function privateMariadbMissing(): string | undefined {
  const missing = [SERVER, INSTALL].filter((program) => spawnSync('sh', ['-c', `command -v ${program}`]).status !== 0);
  return missing.length > 0 ? `${missing.join(' and ')} not installed` : undefined;
}

export interface PrivateMariadb {
  port: number;
  /** A DATABASE_URL of a database made on it. */
  url: string;
  /** SIGKILL: the server is gone at once, as in a crash; its data folder stays. */
  kill(): Promise<void>;
  /** Starts it again on the same data folder and port; resolves once it takes connections. */
  restart(): Promise<void>;
  /** Kills it and removes its data folder. */
  stop(): Promise<void>;
}

/** A loopback port nothing listens on (a moment ago). */
export async function sparePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startPrivateMariadb(database = 'outage'): Promise<PrivateMariadb> {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'research-tools-mariadb-'));
  removeAtExit(folder);
  const dataDir = path.join(folder, 'data');
  const installed = spawnSync(
    INSTALL,
    [
      '--no-defaults',
      `--datadir=${dataDir}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      `--user=${os.userInfo().username}`,
      ...SMALL_INNODB,
    ],
    { encoding: 'utf8' },
  );
  if (installed.status !== 0) throw new Error(`${INSTALL} failed: ${installed.stderr || installed.stdout}`);
  const port = await sparePort();
  let child: ChildProcess | undefined;
  let log = '';

  const start = async (): Promise<void> => {
    child = spawn(
      SERVER,
      [
        '--no-defaults',
        `--datadir=${dataDir}`,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--socket=${path.join(folder, 'mariadb.sock')}`,
        `--pid-file=${path.join(folder, 'mariadb.pid')}`,
        `--user=${os.userInfo().username}`,
        '--skip-log-bin',
        ...SMALL_INNODB,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child.stderr!.on('data', (chunk) => (log = (log + String(chunk)).slice(-4000)));
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${SERVER} exited with ${child.exitCode}: ${log}`);
      try {
        const connection = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
        await connection.end();
        return;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`${SERVER} did not take connections within ${START_TIMEOUT_MS} ms: ${String(error)}; ${log}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };

  const kill = (): Promise<void> =>
    new Promise((resolve) => {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return resolve();
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });

  await start();
  const connection = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root' });
  await connection.query(`CREATE DATABASE \`${database}\``);
  await connection.end();
  return {
    port,
    url: `mysql://root@127.0.0.1:${port}/${database}`,
    kill,
    restart: start,
    stop: async () => {
      await kill();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
