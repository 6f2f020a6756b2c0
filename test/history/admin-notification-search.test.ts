import { waitFor } from '@notify/platform-kit';
import { DEV_DEFAULTS } from '@notify/runtime';
import { createNotifyClient } from '@notify/client';
import { TEST_API_KEY } from '../harness/platform';
import { notificationFor } from '../fixtures/notifications';
import { startHistoryPlatform, type HistoryPlatform } from './history-platform';

/**
 * The console's notification search over the history (admin key as a Bearer header): filters,
 * 20 a page with an "Older results" link, and never an address or content in the page.
 */
let history: HistoryPlatform;
beforeAll(async () => {
  history = await startHistoryPlatform('admin_search');
});
afterAll(async () => {
  await history?.stop();
});

const page = async (query: string) => {
  const res = await fetch(`${history.platform.api.url}/admin/notifications?${query}`, { headers: { authorization: `Bearer ${DEV_DEFAULTS.adminApiKey}` } });
  return { status: res.status, html: await res.text() };
};
const ids = (html: string) => [...html.matchAll(/href="\/admin\/notifications\/([0-9a-f]{32})\?tenant=tenant-a"/g)].map((m) => m[1]);

it('finds archived notifications by recipient, pages 20 at a time, and shows no address or content', async () => {
  const client = createNotifyClient({ baseUrl: history.platform.api.url, apiKey: TEST_API_KEY });
  const bodies = Array.from({ length: 23 }, (_, i) => ({
    ...notificationFor(i, 'email', { prefix: 'admin-search' }),
    recipient: { ...notificationFor(i, 'email').recipient, id: 'searched-user' },
  }));
  const batch = await client.sendBatch(bodies);
  expect(batch.accepted).toBe(23);
  const archived = async () => {
    let count = 0;
    for await (const _item of client.list({ recipientId: 'searched-user' })) count += 1;
    return count === 23;
  };
  await waitFor('all 23 archived', archived, 30_000, 200);
  const first = await page('tenant=tenant-a&recipientId=searched-user');
  expect(first.status).toBe(200);
  expect(ids(first.html)).toHaveLength(20);
  const next = /href="([^"]+)" rel="next"/.exec(first.html)![1]!.replace(/&amp;/g, '&');
  const second = await page(next.split('?')[1]!);
  expect(ids(second.html)).toHaveLength(3);
  expect(new Set([...ids(first.html), ...ids(second.html)])).toEqual(new Set(batch.results.map((r) => r.id)));
  for (const secret of ['user0@example.com', '+905550000', 'kargoya verildi']) expect(first.html + second.html).not.toContain(secret);

  await expect(page('tenant=tenant-a&recipientId=searched-user&eventId=no-such-event')).resolves.toMatchObject({
    status: 200,
    html: expect.stringContaining('No notification matches'),
  });
  const bad = await page('tenant=tenant-a&since=yesterday');
  expect(bad.status).toBe(400);
  expect(bad.html).toContain('since');
});
