import type { Browser } from 'playwright-core';
import { startTestPlatform, type TestPlatform } from '../harness/platform';
import { browserOutput, startWithChromium } from './chromium';

/** `/docs` is Swagger UI over `/openapi.json`, served from node_modules: it must render offline. */
let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  [platform, browser] = await startWithChromium(startTestPlatform({ workerCount: 0 }));
});

afterAll(async () => {
  await browser?.close();
  await platform?.stop();
});

it('renders /docs (Swagger UI over /openapi.json) in headless Chromium, with no request leaving the api', async () => {
  const page = await browser.newPage();
  const external: string[] = [];
  page.on('request', (req) => {
    if (!req.url().startsWith(platform.api.url)) external.push(req.url());
  });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(`${platform.api.url}/docs`);
  await page.waitForSelector('.swagger-ui .opblock-summary-path', { timeout: 30_000 });
  await page.screenshot({ path: browserOutput('docs-page.png'), fullPage: true });

  const paths = (await page.locator('.opblock-summary-path').allInnerTexts()).map((p) => p.replace(/\u200b/g, ''));
  expect(paths).toEqual(expect.arrayContaining(['/v1/notifications', '/v1/notifications/{id}', '/v1/recipients/{id}', '/v1/tracking/{shipmentId}']));
  expect(await page.locator('.info .title').innerText()).toContain('notify api');
  expect(errors).toEqual([]);
  expect(external).toEqual([]);
});
