/**
 * The account settings page driven in headless Chromium (Debian's, loopback only) as its owner
 * would: sign in with a key, create a key and read it once, delete it after confirming, switch a
 * pack off and on, see the chart of credits; and an accessibility check by axe-core.
 */
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { listKeys, packSettings, recordCall } from '../../src/ledger/index.ts';
import { describeInBrowser, launchChromium, seriousAccessibilityIssues } from '../support/browser.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';

describeInBrowser('the account settings page in headless Chromium (loopback only)', () => {
  describeOnEachEngine('as its owner uses it', (engine) => {
    let server: TestServer;
    let browser: Browser;
    before(async function () {
      this.timeout(60_000);
      server = await startServer(engine.db);
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await server?.close();
    });

    it('the accessibility check finds what it should: an input without a label is a critical issue', async () => {
      const page = await browser.newPage();
      await page.setContent('<!doctype html><html lang="en"><head><title>t</title></head><body><main><input id="x"></main></body></html>');
      expect(await seriousAccessibilityIssues(page)).to.deep.equal(['label (critical, 1 elements)']);
      await page.close();
    });

    it('signs in with a key, creates a key shown once, deletes it after confirming, switches a pack off and on, and draws the chart', async function () {
      this.timeout(90_000);
      const caller = await newCaller(engine.db, 42);
      const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000);
      for (const [tool, credits, daysAgo] of [
        ['search_papers', 1, 0],
        ['verify_references', 2, 0],
        ['search_papers', 1, 5],
        ['lookup_gene_protein', 1, 12],
      ] as const) {
        await recordCall(engine.db, {
          callId: `call_${tool}_${daysAgo}_${Math.random().toString(36).slice(2)}`,
          accountId: caller.accountId,
          keyId: caller.keyId,
          tool,
          status: 'ok',
          credits,
          durationMs: 9,
          at: day(daysAgo),
        });
      }
      const context = await browser.newContext({ viewport: { width: 1100, height: 1400 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });

      await page.goto(`${server.baseUrl}/account`);
      await page.getByLabel('API key', { exact: true }).fill(caller.key);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('#settings').waitFor({ state: 'visible' });
      expect(await page.locator('#balance').textContent()).to.equal('42');
      expect(await page.getByLabel('API key', { exact: true }).inputValue()).to.equal('');
      const cookies = await context.cookies();
      expect(cookies.map((cookie) => [cookie.name, cookie.httpOnly, cookie.sameSite, cookie.path])).to.deep.equal([
        ['rt_account_session', true, 'Strict', '/account'],
      ]);
      expect(
        JSON.stringify(await page.evaluate(() => ({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie }))),
      ).to.not.include(caller.key);

      // The chart: one bar per day and tool with credits, and the numbers per tool.
      expect(await page.locator('#chart svg rect[data-tool]').count()).to.equal(4);
      expect(await page.locator('#chart-caption').textContent()).to.match(/^5 credits in 4 calls from \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d\.$/);
      expect(await page.locator('#chart-legend li').allTextContents()).to.deep.equal([' search_papers', ' verify_references', ' lookup_gene_protein']);
      expect(await seriousAccessibilityIssues(page)).to.deep.equal([]);

      // A new key, read once.
      await page.getByLabel('Name of a new key').fill('browser key');
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.locator('#new-key').waitFor({ state: 'visible' });
      const secret = await page.locator('#new-key-value').inputValue();
      expect(secret).to.match(/^sm_[0-9A-Za-z]{40}$/);
      expect((await call(server.baseUrl, '/api/v1/account', { key: secret })).status).to.equal(200);
      await page.getByRole('button', { name: 'Copy' }).click();
      // The copy is asynchronous: wait for the page to say how it went (copied, or select it yourself where the clipboard is refused).
      await page
        .locator('#status')
        .filter({ hasText: /^(Key copied to the clipboard\.|Select and copy the key with your keyboard \(Ctrl\+C or ⌘C\)\.)$/ })
        .waitFor();
      await page.getByRole('button', { name: 'Done' }).click();
      expect([await page.locator('#new-key').isHidden(), await page.locator('#new-key-value').inputValue()]).to.deep.equal([true, '']);
      expect(await page.content()).to.not.include(secret);
      const created = (await listKeys(engine.db, caller.accountId)).find((key) => key.name === 'browser key')!;

      // Deleted after confirming in the dialog; cancelling first changes nothing.
      const deleteButton = page.getByRole('button', { name: `Delete key browser key (${created.prefix}…)` });
      await deleteButton.click();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      expect((await listKeys(engine.db, caller.accountId)).map((key) => key.name)).to.deep.equal(['test', 'browser key']);
      await deleteButton.click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete key' }).click();
      await page.locator(`tr[data-key-id="${created.id}"]`).waitFor({ state: 'detached' });
      expect((await listKeys(engine.db, caller.accountId)).map((key) => key.name)).to.deep.equal(['test']);
      expect((await call(server.baseUrl, '/api/v1/account', { key: secret })).status).to.equal(401);

      // A pack switched off, then on, with the keyboard.
      const astro = page.getByRole('switch', { name: 'Astronomy' });
      await astro.focus();
      await page.keyboard.press('Space');
      await page.locator('#status').filter({ hasText: 'Astronomy switched off.' }).waitFor();
      expect((await packSettings(engine.db, caller.accountId)).astro).to.equal(false);
      expect((await call(server.baseUrl, '/api/v1/search_exoplanets', { key: caller.key, body: {} })).status).to.equal(403);
      await page.keyboard.press('Space');
      await page.locator('#status').filter({ hasText: 'Astronomy switched on.' }).waitFor();
      expect((await packSettings(engine.db, caller.accountId)).astro).to.equal(true);

      expect(await seriousAccessibilityIssues(page)).to.deep.equal([]);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.locator('#sign-in').waitFor({ state: 'visible' });
      expect(await seriousAccessibilityIssues(page)).to.deep.equal([]);
      expect(errors).to.deep.equal([]);
      await context.close();
    });
  });
});
