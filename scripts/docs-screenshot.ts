/**
 * Regenerates docs/api-reference.png, the README's picture of GET /docs: the real server on a
 * temporary embedded database, photographed by headless Chromium that can reach only loopback.
 * `npm run docs:screenshot` (needs Debian's chromium package).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { migrateToLatest, openDatabase } from '../src/ledger/index.ts';
import { createLogger } from '../src/logging.ts';
import { createApp } from '../src/server/app.ts';
import type { FigureJobRunner } from '../src/figures/runner.ts';
import { screenshot } from '../test/support/browser.ts';

const target = fileURLToPath(new URL('../docs/api-reference.png', import.meta.url));
const folder = mkdtempSync(path.join(os.tmpdir(), 'research-tools-docs-'));
const db = openDatabase(`sqlite:${path.join(folder, 'ledger.sqlite')}`);
try {
  await migrateToLatest(db);
  const config = loadConfig({ PORT: '0', PUBLIC_BASE_URL: 'http://localhost:8080', FILES_DIR: 'off', FIGURE_WORKERS: '0' });
  const app = await createApp({ db, config, logger: createLogger('silent') });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  mkdirSync(path.dirname(target), { recursive: true });
  await screenshot(`http://127.0.0.1:${port}/docs`, target, { width: 1280, height: 1600 });
  await new Promise((resolve) => server.close(resolve));
  await (app.locals.figureRunner as FigureJobRunner).stop();
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
} finally {
  await db.destroy();
  rmSync(folder, { recursive: true, force: true });
}
