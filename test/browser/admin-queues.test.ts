import type { Browser, BrowserContext, Page } from 'playwright-core';
import { OTHER_TENANT_KEY, TEST_API_KEY, startTestPlatform, type TestPlatform } from '../harness/platform';
import { notificationFor } from '../fixtures/notifications';
import { browserOutput, startWithChromium } from './chromium';

const ADMIN_KEY = 'browser-test-admin-key-000000000000';
/** What the lanes hold: no workers run, so each accepted notification waits in its first lane. */
const LANES = { 'push-urgent': 3, 'push-reminder': 0, 'sms-urgent': 2, 'sms-reminder': 0, 'email-urgent': 0, 'email-reminder': 1 } as const;

let platform: TestPlatform;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [platform, browser] = await startWithChromium(startTestPlatform({ workerCount: 0, env: { ADMIN_API_KEY: ADMIN_KEY } }));
  let i = 0;
  for (const [lane, count] of Object.entries(LANES)) {
    const [channel, priority] = lane.split('-') as ['push' | 'sms' | 'email', 'urgent' | 'reminder'];
    for (let n = 0; n < count; n += 1) {
      i += 1;
      const res = await fetch(`${platform.api.url}/v1/notifications`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(notificationFor(i, channel, { priority, prefix: 'browser' })),
      });
      expect(res.status).toBe(202);
    }
  }
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await platform?.stop();
});

/** A fresh browser profile whose requests may only go to the api (bull-board's page asks Google Fonts). */
async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  await context.route(
    (url) => !url.href.startsWith(platform.api.url),
    (route) => route.abort(),
  );
  return context.newPage();
}

/** Opens the board, is sent to the form, and submits `key`; resolves with the sign-in POST's status. */
async function signIn(page: Page, key: string): Promise<number> {
  await page.goto(`${platform.api.url}/admin/queues`);
  expect(new URL(page.url()).pathname).toBe('/admin/login');
  await page.fill('input[name=key]', key);
  const [response] = await Promise.all([
    page.waitForResponse((res) => res.url().endsWith('/admin/login') && res.request().method() === 'POST'),
    page.click('button[type=submit]'),
  ]);
  await page.waitForLoadState();
  return response.status();
}

/** Each lane card's "N Jobs" as a number, read from the page (the board's overview). */
async function laneCounts(page: Page): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const lane of Object.keys(LANES)) {
    const card = page.locator('main li', { has: page.locator(`a[title="${lane}"]`) });
    const total = await card.getByText(/^\d+ Jobs?$/).innerText();
    counts[lane] = Number(total.split(' ')[0]);
  }
  return counts;
}

it('signs in with the admin key, shows the six lanes with their counts, and signs out', async () => {
  const page = await newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !/fonts\.googleapis/.test(message.text())) consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
  expect(await signIn(page, ADMIN_KEY)).toBe(303);
  expect(new URL(page.url()).pathname).toMatch(/^\/admin\/queues\/?$/);
  await page.locator('main a[title="email-reminder"]').waitFor({ timeout: 30_000 });
  await page.getByText(/^3 Jobs$/).waitFor({ timeout: 30_000 });
  expect(await laneCounts(page)).toEqual(LANES);
  const session = (await page.context().cookies()).find((c) => c.name === 'notify_admin_session');
  expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin' });
  await page.screenshot({ path: browserOutput('admin-queues.png'), fullPage: true });

  // A write from the page itself: refused without the token (403), let through to bull-board with
  // the token the page's script reads from the XSRF-TOKEN cookie (then 405: the lanes are read-only).
  const statuses = await page.evaluate(async () => {
    const url = '/admin/queues/api/queues/push-urgent/empty';
    const { cookie } = (globalThis as unknown as { document: { cookie: string } }).document; // runs in the page (no DOM lib here)
    const token = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]*)/.exec(cookie)?.[1] ?? '');
    const bare = await fetch(url, { method: 'PUT' });
    const withToken = await fetch(url, { method: 'PUT', headers: { 'x-xsrf-token': token } });
    return [bare.status, withToken.status];
  });
  expect(statuses).toEqual([403, 405]);
  // The board runs under its Content-Security-Policy without a violation or a script error.
  expect(consoleErrors.filter((text) => !/status of 40[35]/.test(text))).toEqual([]);

  // Sign out from the board's user menu: a confirmation page, then a POST with the CSRF token.
  await page.locator('header button[aria-haspopup="menu"]').click();
  await page.getByText('Sign out').click();
  await page.waitForURL(/\/admin\/logout$/);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/admin\/login$/);
  expect((await page.context().cookies()).map((c) => c.name)).not.toContain('notify_admin_session');
  await page.goto(`${platform.api.url}/admin/queues`);
  expect(new URL(page.url()).pathname).toBe('/admin/login');
});

it('refuses a tenant key: the form answers 401 and the board stays closed', async () => {
  for (const key of [TEST_API_KEY, OTHER_TENANT_KEY]) {
    const page = await newPage();
    expect(await signIn(page, key)).toBe(401);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    await expect(page.getByRole('alert').innerText()).resolves.toContain('not the admin key');
    expect((await page.context().cookies()).map((c) => c.name)).not.toContain('notify_admin_session');
    if (key === TEST_API_KEY) await page.screenshot({ path: browserOutput('admin-login-refused.png') });
    await page.goto(`${platform.api.url}/admin/queues`);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
    const api = await page.request.get(`${platform.api.url}/admin/queues/api/queues`);
    expect(api.status()).toBe(401);
  }
});
