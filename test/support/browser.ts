/**
 * Headless Chromium (Debian's package), driven by Playwright, for tests of pages this server
 * serves. It may reach only the loopback interface: every other host name resolves to nothing, and
 * background networking is off. Without Chromium the browser suites are skipped, saying so, except in CI where they fail.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Opens `url` in a new page of `size` and waits until the page's scripts have put every one of
 * `texts` into its DOM: the wait ends when the page is drawn, not after a fixed time. When they do
 * not all appear within `timeoutMs`, fails naming the ones missing.
 */
export async function openRendered(browser: Browser, url: string, texts: string[], size = { width: 1280, height: 2000 }, timeoutMs = 60_000): Promise<Page> {
  const page = await browser.newPage({ viewport: size });
  await page.goto(url);
  const missing = (wanted: string[]): string[] => wanted.filter((text) => !document.documentElement.outerHTML.includes(text));
  try {
    await page.waitForFunction((wanted) => wanted.every((text) => document.documentElement.outerHTML.includes(text)), texts, {
      timeout: timeoutMs,
      polling: 100,
    });
  } catch (error) {
    const absent = await page.evaluate(missing, texts).catch(() => texts);
    await page.close();
    throw new Error(`${url} did not show ${absent.join(', ')} within ${timeoutMs} ms`, { cause: error });
  }
  return page;
}

/** `describe` for suites that need Chromium: skipped with a plain message when it is missing, failing instead in CI. */
export function describeInBrowser(title: string, body: () => void): void {
  describe(title, function () {
    if (!existsSync(CHROMIUM)) {
      before(function () {
        if (process.env.CI) throw new Error(`Chromium is not at ${CHROMIUM}: .ci/run installs the chromium package`);
        console.log(`Skipped: ${title} needs Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH).`);
        this.skip();
      });
    }
    body();
  });
}

let axeSource: string | undefined;

/** Launches Chromium that can reach only 127.0.0.1. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
}

/** Serious and critical accessibility findings of axe-core on the page as it stands (WCAG 2 A and AA, best practice). */
export async function seriousAccessibilityIssues(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, which the page's Content Security Policy does not govern.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(context: unknown, options: unknown): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> };
      }
    ).axe;
    return (await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })).violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}, ${violation.nodes.length} elements)`);
}
