import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (`apt-get install -y chromium`; .ci/run installs it when missing). */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Headless, no sandbox (containers run as root), and nothing that phones home: no background
 * networking, component updates or sync, so a test's only traffic is to 127.0.0.1.
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Where browser tests leave screenshots (gitignored). */
export const BROWSER_OUTPUT_DIR = join(__dirname, '..', '..', 'test-output', 'browser');

/**
 * Launches headless Chromium through playwright-core. A missing browser fails the test with
 * the fix in the message: browser tests are never skipped silently.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`browser tests need Chromium at ${CHROMIUM_PATH}: install it with \`apt-get install -y chromium\` (Debian), as .ci/run does`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_FLAGS] });
}

/**
 * A service (a test platform) and Chromium started at once, as they are independent. When one
 * fails, what the other started is stopped before its error is thrown: nothing is left running.
 */
export async function startWithChromium<T extends { stop(): Promise<void> }>(starting: Promise<T>): Promise<[T, Browser]> {
  const [service, browser] = await Promise.allSettled([starting, launchChromium()]);
  if (service.status === 'fulfilled' && browser.status === 'fulfilled') return [service.value, browser.value];
  if (service.status === 'fulfilled') await service.value.stop();
  if (browser.status === 'fulfilled') await browser.value.close();
  throw service.status === 'rejected' ? service.reason : (browser as PromiseRejectedResult).reason;
}

/** A file path in the browser output folder (created on demand), for `page.screenshot({ path })`. */
export function browserOutput(fileName: string): string {
  mkdirSync(BROWSER_OUTPUT_DIR, { recursive: true });
  return join(BROWSER_OUTPUT_DIR, fileName);
}
