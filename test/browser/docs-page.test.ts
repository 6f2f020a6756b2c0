import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startTestPlatform, type TestPlatform } from '../harness/platform';

const OUTPUT = join(__dirname, '..', '..', 'test-output', 'browser');

let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  platform = await startTestPlatform({ workerCount: 0 });
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  mkdirSync(OUTPUT, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

it('renders /docs (Swagger UI over /openapi.json) in headless Chromium, with no request leaving 127.0.0.1', async () => {
  const page = await browser.newPage();
  const external: string[] = [];
  page.on('request', (req) => { if (!req.url().startsWith(platform.api.url)) external.push(req.url()); });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${platform.api.url}/docs`);
  await page.waitForSelector('.swagger-ui .opblock-summary-path', { timeout: 30_000 });
  const paths = await page.locator('.opblock-summary-path').allInnerTexts();
  await page.screenshot({ path: join(OUTPUT, 'docs-page.png'), fullPage: true });
  expect(paths.map((p) => p.replace(/\u200b/g, ''))).toEqual(expect.arrayContaining(['/v1/notifications', '/v1/notifications/{id}', '/v1/tracking/{shipmentId}']));
  expect(await page.locator('.info .title').innerText()).toContain('notify api');
  expect(errors).toEqual([]);
  expect(external).toEqual([]);
});
