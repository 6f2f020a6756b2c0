import { Redis } from 'ioredis';
import request from 'supertest';
import { webhookTenantKey } from '@notify/webhooks';
import { postAllAccepted } from '../harness/batch-post';
import { waitAllTerminal } from '../harness/notification-poll';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';

/**
 * Publishing a webhook event never fails a step: with the tenant's endpoint set made unreadable
 * (a string where a set belongs, so every publish fails with WRONGTYPE), notifications still end
 * as usual and no step job is re-run (a step that threw would be retried by BullMQ and counted
 * as a duplicate blocked at the worker).
 */
let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' } });
});
afterAll(async () => {
  await platform?.stop();
});

it('a failing publish is logged, never thrown into the step', async () => {
  const created = await request(platform.api.url)
    .post('/v1/webhooks')
    .set('authorization', `Bearer ${TEST_API_KEY}`)
    .send({ url: 'http://127.0.0.1:9/hook', events: ['notification.delivered', 'notification.failed', 'attempt.failed'] });
  expect(created.status).toBe(201);
  const redis = new Redis(platform.redis.url);
  try {
    await redis.del(webhookTenantKey('tenant-a'));
    await redis.set(webhookTenantKey('tenant-a'), 'not a set');
    const run = `pubfail-${Date.now()}`;
    const ids = await postAllAccepted(
      platform.api.url,
      Array.from({ length: 50 }, (_, i) => ({
        eventId: `${run}-${i}`,
        priority: 'urgent',
        recipient: { id: `u-${i}`, addresses: { push: `tok-${i}`, sms: '+905551112233' }, preferences: ['push', 'sms'] },
        content: { title: 't', body: 'b' },
      })),
      50,
    );
    const views = await waitAllTerminal(platform.redis.url, ids, 60_000);
    expect(views.every((v) => ['delivered', 'failed', 'unconfirmed'].includes(v.status))).toBe(true);
    const metrics = await (await fetch(platform.workers[0]!.metricsUrl)).text();
    expect(metrics).not.toMatch(/^notify_duplicates_blocked_total\{[^}]*stage="worker"[^}]*\} [1-9]/m);
    expect(await redis.get(webhookTenantKey('tenant-a'))).toBe('not a set'); // the fault held for the whole run
  } finally {
    redis.disconnect();
  }
});
