import type { Browser } from 'playwright-core';
import request from 'supertest';
import { LoopbackSmtp } from '@notify/providers/testing';
import type { TestPlatform } from '../harness/platform';
import { oneChannel, postNotification, startWithProviders, waitTerminal } from '../providers/real-provider-harness';
import { rawHeader, unsubscribeUrlOf } from '../consent/unsubscribe-links';
import { browserOutput, launchChromium } from './chromium';

/**
 * The one-click link's confirmation page in headless Chromium: opening it (a GET, what a link
 * scanner does) unsubscribes no one; its button POSTs, and then the next e-mail is skipped.
 */
let peer: LoopbackSmtp;
let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  peer = await LoopbackSmtp.start({ user: 'notify', password: 'smtp-pw-Page-2207' });
  platform = await startWithProviders([peer.providerConfig()], { CONSENT_CACHE_MS: '0' });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await peer?.close();
});

const email = (eventId: string, address: string) => oneChannel('email', eventId, 'page-user', address, { title: 'Bülten', body: 'Bu hafta yeni neler var.' });

it('shows a one-line page whose button unsubscribes; opening it alone changes nothing', async () => {
  const address = 'page.deniz@example.com';
  await waitTerminal(platform.redis.url, await postNotification(platform.api.url, email('page-1', address)));
  const link = unsubscribeUrlOf(rawHeader(peer.mailsTo(address)[0]!, 'List-Unsubscribe'));

  const page = await browser.newPage();
  const external: string[] = [];
  page.on('request', (req) => {
    if (!req.url().startsWith(platform.api.url)) external.push(req.url());
  });
  const opened = await page.goto(`${platform.api.url}${link.pathname}`);
  expect(opened?.status()).toBe(200);
  expect(await page.locator('body').innerText()).toContain('Stop receiving these e-mails?');
  await page.screenshot({ path: browserOutput('unsubscribe-page.png') });

  const stillSent = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, email('page-2', address)));
  expect(stillSent.status).toBe('delivered');

  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Unsubscribe' }).click()]);
  expect(await page.locator('body').innerText()).toContain('You are unsubscribed');
  await page.screenshot({ path: browserOutput('unsubscribe-done.png') });
  expect(external).toEqual([]);

  const skipped = await waitTerminal(platform.redis.url, await postNotification(platform.api.url, email('page-3', address)));
  expect(skipped.skips).toEqual([expect.objectContaining({ channel: 'email', reason: 'opted-out' })]);
  expect(skipped.attempts).toEqual([]);
  // The page of a forged link is refused like its POST.
  expect((await request(platform.api.url).get(`${link.pathname}x`)).status).toBe(400);
});
