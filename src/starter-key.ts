/**
 * Where the key of the starter account (made on the first start on an empty embedded database) is
 * shown: to the person at the terminal, never into the JSON log on stdout, which a log collector
 * stores. On a terminal it goes to stderr; otherwise (a service manager, a container, stderr piped
 * to a file) into a file only its owner can read, beside the database, and the log says where.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';

export const STARTER_KEY_FILE_NAME = 'starter-key.txt';

export interface StarterKey {
  accountId: string;
  credits: number;
  key: string;
  port: number;
}

/** The folder of the SQLite file of `databaseUrl` (the working folder for an in-memory database). */
export function databaseFolder(databaseUrl: string): string {
  const location = databaseUrl.slice('sqlite:'.length).replace(/^\/\//, '');
  return location === ':memory:' ? process.cwd() : path.dirname(path.resolve(location));
}

function message({ accountId, credits, key, port }: StarterKey): string {
  return (
    `First start on the embedded database: created account ${accountId} with ${credits} credits and this API key\n` +
    `(shown only now; keep it):\n\n  ${key}\n\nTry it:\n\n` +
    `  curl -s -X POST http://localhost:${port}/api/v1/list_capabilities \\\n` +
    `    -H 'Authorization: Bearer ${key}' -H 'Content-Type: application/json' -d '{}'\n`
  );
}

/**
 * Shows the starter key on `terminal` when it is a TTY, else writes it to `starter-key.txt` in
 * `folder` with mode 0600 (a file left by an earlier database is replaced) and logs that file's
 * path, without the key.
 */
export function showStarterKey(
  starter: StarterKey,
  { terminal, folder, logger }: { terminal: NodeJS.WritableStream & { isTTY?: boolean }; folder: string; logger: Logger },
): void {
  if (terminal.isTTY) {
    terminal.write(`\n${message(starter)}\n`);
    return;
  }
  const file = path.join(folder, STARTER_KEY_FILE_NAME);
  // Removed first: the mode is given only to a file that is created.
  rmSync(file, { force: true });
  writeFileSync(file, message(starter), { mode: 0o600, flag: 'wx' });
  logger.info({ account_id: starter.accountId, file }, `the starter account's API key is in ${file} (readable by this user only)`);
}
