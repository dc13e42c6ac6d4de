/**
 * Headless Chromium (Debian's package) for tests of pages this server serves. It may reach only
 * the loopback interface: every other host name resolves to nothing, and background networking
 * is off. Without Chromium the browser suites are skipped, saying so, except in CI where they fail.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';

const run = promisify(execFile);

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function flags(profile: string, width: number, height: number): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-extensions',
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    `--user-data-dir=${profile}`,
    `--window-size=${width},${height}`,
    '--hide-scrollbars',
    // Scripts run, and the page is read once they have settled.
    '--virtual-time-budget=15000',
  ];
}

async function withProfile<T>(work: (profile: string) => Promise<T>): Promise<T> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'research-tools-chromium-'));
  try {
    return await work(profile);
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}

/** The page's DOM after its scripts ran. */
export async function renderedDom(url: string, size = { width: 1280, height: 2000 }): Promise<string> {
  return withProfile(async (profile) => {
    const { stdout } = await run(CHROMIUM, [...flags(profile, size.width, size.height), '--dump-dom', url], { maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
    return stdout;
  });
}

/** A PNG screenshot of the page after its scripts ran, written to `file`. */
export async function screenshot(url: string, file: string, size = { width: 1280, height: 2000 }): Promise<void> {
  await withProfile(async (profile) => {
    await run(CHROMIUM, [...flags(profile, size.width, size.height), `--screenshot=${file}`, url], { timeout: 120_000 });
  });
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
