import type { Browser, Page } from 'playwright-core';
import { createNotifyClient, type NotificationRequest } from '@notify/client';
import { TEST_API_KEY, startTestPlatform, type TestPlatform } from '../harness/platform';
import { notificationFor } from '../fixtures/notifications';
import { browserOutput, launchChromium } from './chromium';

/**
 * The operator's question "did it arrive?" in the console: sign in, search for a notification
 * whose push failed and that cascaded to SMS, open its timeline, and read both attempts in order,
 * without an address or the content anywhere on the pages.
 */
const ADMIN_KEY = 'browser-test-admin-key-000000000000';
let platform: TestPlatform;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { ADMIN_API_KEY: ADMIN_KEY } });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route(
    (url) => !url.href.startsWith(platform.api.url),
    (route) => route.abort(),
  );
  page = await context.newPage();
});
afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

it('signs in, finds the notification that cascaded from push to SMS, and shows both attempts in order', async () => {
  // Push refuses every message for good: the cascade moves on to SMS at once.
  await fetch(`${platform.sims.controlUrl}/control/channels/push`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ permanentRate: 1 }),
  });
  const client = createNotifyClient({ baseUrl: platform.api.url, apiKey: TEST_API_KEY });
  const body = notificationFor(7, 'push', { prefix: 'timeline', priority: 'urgent' }) as NotificationRequest;
  body.recipient.preferences = ['push', 'sms'];
  const { id } = await client.send(body);
  await expect(client.waitForTerminal(id, { timeoutMs: 30_000, intervalMs: 50 })).resolves.toMatchObject({ status: 'delivered', deliveredChannel: 'sms' });

  await page.goto(`${platform.api.url}/admin/notifications`);
  expect(new URL(page.url()).pathname).toBe('/admin/login');
  await page.getByLabel('Admin API key').fill(ADMIN_KEY);
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/admin\/queues/);
  await page.goto(`${platform.api.url}/admin/notifications`);

  // The search, by keyboard: event id and recipient id find it while it is still in Redis.
  await page.getByLabel('Tenant').selectOption('tenant-a');
  await page.getByLabel('Event id').fill(body.eventId);
  await page.getByLabel('Recipient id').fill(body.recipient.id);
  await page.getByLabel('Recipient id').press('Enter');
  await page.waitForURL(/eventId=/);
  const result = page.getByRole('link', { name: id });
  await result.waitFor();
  await expect(page.getByRole('table').first().innerText()).resolves.toContain('push → sms');
  await page.screenshot({ path: browserOutput('admin-notification-search.png'), fullPage: true });

  await result.click();
  await page.waitForURL(new RegExp(`/admin/notifications/${id}`));
  const attempts = await page.locator('ol.timeline li.attempt h3').allInnerTexts();
  expect(attempts).toEqual(['Attempt 1: push, permanent', 'Attempt 2: sms, delivered']);
  const kinds = await page.locator('ol.timeline li').evaluateAll((items) => items.map((item) => item.className));
  expect(kinds[0]).toBe('accepted');
  expect(kinds.indexOf('attempt')).toBeLessThan(kinds.lastIndexOf('attempt'));
  expect(kinds[kinds.length - 1]).toBe('terminal');
  await expect(page.locator('ol.timeline li.terminal h3').innerText()).resolves.toBe('Ended delivered');
  await page.screenshot({ path: browserOutput('admin-notification-timeline.png'), fullPage: true });

  const text = await page.locator('body').innerText();
  for (const secret of [body.recipient.addresses!.push as string, body.recipient.addresses!.sms!, body.recipient.addresses!.email!, body.content.body]) {
    expect(text).not.toContain(secret);
  }
});
