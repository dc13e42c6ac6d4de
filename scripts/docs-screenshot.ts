/**
 * Regenerates the README's pictures: docs/api-reference.png (GET /docs) and docs/account-sign-in.png
 * and docs/account-settings.png (GET /account, signed in, with a month of sample calls): the real
 * server on a temporary embedded database, photographed by headless Chromium that can reach only
 * loopback. `npm run docs:screenshot` (needs Debian's chromium package).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { createAccount, createKey, recordCall } from '../src/ledger/index.ts';
import { migrateToLatest, openDatabase } from '../src/database/index.ts';
import { createLogger } from '../src/logging.ts';
import { createApp } from '../src/server/app.ts';
import type { FigureJobRunner } from '../src/figures/runner.ts';
import { tools } from '../generated/tools.ts';
import { launchChromium, openRendered } from '../test/support/browser.ts';

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
  await photographReference(`http://127.0.0.1:${port}/docs`);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
  await photographAccountPage(`http://127.0.0.1:${port}`);
  await new Promise((resolve) => server.close(resolve));
  await (app.locals.figureRunner as FigureJobRunner).stop();
} finally {
  await db.destroy();
  rmSync(folder, { recursive: true, force: true });
}

/** The API reference once Swagger UI has drawn every tool. */
async function photographReference(url: string): Promise<void> {
  const browser = await launchChromium();
  try {
    const paths = Object.values(tools).map((tool) => `/api/v1/${tool.name}`);
    const page = await openRendered(browser, url, paths, { width: 1280, height: 1600 });
    await page.screenshot({ path: target });
  } finally {
    await browser.close();
  }
}

/** The settings page of an account with a month of sample calls: before and after signing in. */
async function photographAccountPage(baseUrl: string): Promise<void> {
  const account = await createAccount(db, { name: 'Lab A', credits: 1000 });
  const key = await createKey(db, account.id, 'laptop');
  await createKey(db, account.id, 'CI runner');
  const sample: Array<[string, number]> = [
    ['search_papers', 1],
    ['verify_references', 2],
    ['lookup_gene_protein', 1],
    ['get_series', 1],
  ];
  for (let daysAgo = 29; daysAgo >= 0; daysAgo -= 1) {
    for (const [index, [tool, credits]] of sample.entries()) {
      const calls = (daysAgo * 7 + index * 3) % 5;
      for (let call = 0; call < calls; call += 1) {
        await recordCall(db, {
          callId: `call_sample_${daysAgo}_${index}_${call}`,
          accountId: account.id,
          keyId: key.id,
          tool,
          status: 'ok',
          credits,
          durationMs: 120,
          at: new Date(Date.now() - daysAgo * 86_400_000),
        });
      }
    }
  }
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(`${baseUrl}/account`);
    await page.locator('#sign-in').waitFor({ state: 'visible' });
    await page.screenshot({ path: fileURLToPath(new URL('../docs/account-sign-in.png', import.meta.url)) });
    await page.getByLabel('API key', { exact: true }).fill(key.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#settings').waitFor({ state: 'visible' });
    await page.getByRole('switch', { name: 'Astronomy' }).click();
    await page.locator('#status').filter({ hasText: 'switched off' }).waitFor();
    await page.screenshot({ path: fileURLToPath(new URL('../docs/account-settings.png', import.meta.url)), fullPage: true });
    console.log('wrote docs/account-sign-in.png and docs/account-settings.png');
  } finally {
    await browser.close();
  }
}
