import request from 'supertest';
import { waitFor } from '@notify/platform-kit';
import { readViews, waitAllTerminal } from '../harness/notification-poll';
import { OTHER_TENANT_KEY, startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { notifyInCategory } from './category-notification';

/**
 * Categories and opt-outs through the real pipeline (api → Redis → worker → simulators): the
 * opted-out stage skips a channel without a call, a notification with every channel opted out
 * ends without any, a required category ignores opt-outs, and an opt-out recorded while a step
 * waits in its cascade delay applies to the next call.
 */
let platform: TestPlatform;
beforeAll(async () => {
  // Every SMS call fails transiently (and waits 1.5 s before the next step); nothing else fails.
  platform = await startTestPlatform({
    simEnv: { SIM_TRANSIENT_RATES: '0,1,0', SIM_PERMANENT_RATES: '0,0,0' },
    // CONSENT_CACHE_MS=0: the tenant's first opt-out applies at once (by default within 5 s).
    env: { CASCADE_TRANSIENT_DELAY_MS: '1500', CONSENT_CACHE_MS: '0' },
  });
});
afterAll(async () => {
  await platform?.stop();
});

const auth = { authorization: `Bearer ${TEST_API_KEY}` };
const api = () => request(platform.api.url);

const notify = (eventId: string, recipient: object, category?: string) => notifyInCategory(platform.api.url, TEST_API_KEY, eventId, recipient, category);

const terminal = async (id: string) => (await waitAllTerminal(platform.redis.url, [id], 20_000))[0]!;

beforeAll(async () => {
  expect((await api().put('/v1/categories/marketing').set(auth).send({ name: 'Marketing' })).status).toBe(201);
  expect((await api().put('/v1/categories/security').set(auth).send({ name: 'Security codes', required: true })).status).toBe(201);
  expect(
    (
      await api()
        .put('/v1/categories/orders')
        .set(auth)
        .send({ name: 'Orders', channels: ['email'] })
    ).status,
  ).toBe(201);
});

describe('categories', () => {
  it('lists, reads and deletes them; another tenant sees none', async () => {
    const list = await api().get('/v1/categories').set(auth);
    expect(list.body.categories.map((c: { id: string }) => c.id)).toEqual(['marketing', 'orders', 'security']);
    expect((await api().get('/v1/categories/security').set(auth)).body).toEqual({ id: 'security', name: 'Security codes', required: true });
    expect(
      (
        await api()
          .get('/v1/categories/security')
          .set({ authorization: `Bearer ${OTHER_TENANT_KEY}` })
      ).status,
    ).toBe(404);
    expect(
      (
        await api()
          .delete('/v1/categories/security')
          .set({ authorization: `Bearer ${OTHER_TENANT_KEY}` })
      ).status,
    ).toBe(404);
    expect((await api().put('/v1/categories/tmp').set(auth).send({ name: 'Temporary' })).status).toBe(201);
    expect((await api().delete('/v1/categories/tmp').set(auth)).status).toBe(204);
    expect((await api().get('/v1/categories/tmp').set(auth)).status).toBe(404);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const bad = await api()
      .put('/v1/categories/x')
      .set(auth)
      .send({ name: 'X', channels: ['fax'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('channels.0');
    expect((await api().put('/v1/categories/bad!id').set(auth).send({ name: 'X' })).body.error.details).toEqual([expect.objectContaining({ field: 'id' })]);
    const unknown = await api()
      .post('/v1/notifications')
      .set(auth)
      .send({
        eventId: 'cat-unknown',
        priority: 'urgent',
        recipient: { id: 'u', addresses: { email: 'u@example.com' } },
        content: { title: 't', body: 'b' },
        category: 'nope',
      });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([expect.objectContaining({ field: 'category' })]);
  });

  it("keeps a notification to its category's channels", async () => {
    const view = await terminal(await notify('cat-orders', { id: 'orders-user', addresses: { push: 'tok-orders', email: 'o@example.com' } }, 'orders'));
    expect(view.plan).toEqual(['email']);
    expect(view.attempts.map((a) => [a.channel, a.outcome])).toEqual([['email', 'delivered']]);
  });
});

describe('opt-outs', () => {
  const recipient = { id: 'opted-user', addresses: { push: 'tok-opted', email: 'opted@example.com' }, preferences: ['email', 'push'] };

  it('stores, shows and validates preferences; another tenant finds none', async () => {
    const put = await api()
      .put('/v1/recipients/opted-user/preferences')
      .set(auth)
      .send({ categories: { marketing: { email: false } } });
    expect(put.status).toBe(200);
    expect((await api().get('/v1/recipients/opted-user/preferences').set(auth)).body).toEqual({
      id: 'opted-user',
      channels: {},
      categories: { marketing: { email: false } },
    });
    expect(
      (
        await api()
          .get('/v1/recipients/opted-user/preferences')
          .set({ authorization: `Bearer ${OTHER_TENANT_KEY}` })
      ).status,
    ).toBe(404);
    const unknownCategory = await api()
      .put('/v1/recipients/opted-user/preferences')
      .set(auth)
      .send({ categories: { nope: { email: false } } });
    expect(unknownCategory.status).toBe(400);
    expect(unknownCategory.body.error.details).toEqual([expect.objectContaining({ field: 'categories.nope' })]);
    const unknownChannel = await api()
      .put('/v1/recipients/opted-user/preferences')
      .set(auth)
      .send({ channels: { fax: false } });
    expect(unknownChannel.status).toBe(400);
    expect(unknownChannel.body.error.details[0].field).toBe('channels');
    expect(
      (
        await api()
          .put('/v1/recipients/opted-user/preferences')
          .set(auth)
          .send({ channels: { email: 'no' } })
      ).body.error.details[0].field,
    ).toBe('channels.email');
  });

  it('skips an opted-out channel without a call and delivers on the next; other categories still use it', async () => {
    const marketing = await terminal(await notify('opt-1', recipient, 'marketing'));
    expect(marketing.status).toBe('delivered');
    expect(marketing.skips).toEqual([expect.objectContaining({ channel: 'email', reason: 'opted-out' })]);
    // Passed over at intake (the script reads the opt-out in the record's slot): the delivering call is step 1, no lane job skipped it.
    expect(marketing.attempts.map((a) => [a.channel, a.outcome, a.step])).toEqual([['push', 'delivered', 1]]);

    const plain = await terminal(await notify('opt-2', recipient));
    expect(plain.skips).toEqual([]);
    expect(plain.attempts.map((a) => [a.channel, a.outcome])).toEqual([['email', 'delivered']]);
  });

  it('ends a notification whose every channel is opted out `opted-out`, with no call; a required category ignores opt-outs', async () => {
    await api()
      .put('/v1/recipients/opted-user/preferences')
      .set(auth)
      .send({ channels: { push: false }, categories: { marketing: { email: false } } });
    const none = await terminal(await notify('opt-3', recipient, 'marketing'));
    expect(none.status).toBe('opted-out');
    expect(none.failureReason).toBe('all-channels-opted-out');
    expect(none.attempts).toEqual([]);
    expect(none.skips.map((s) => [s.channel, s.reason])).toEqual([
      ['email', 'opted-out'],
      ['push', 'opted-out'],
    ]);

    const code = await terminal(await notify('opt-4', recipient, 'security'));
    expect(code.skips).toEqual([]);
    expect(code.attempts.map((a) => [a.channel, a.outcome])).toEqual([['email', 'delivered']]);
  });

  it('applies an opt-out recorded while a step waits in its cascade delay to that next call', async () => {
    const waiting = { id: 'waiting-user', addresses: { sms: '+905551230000', email: 'waiting@example.com' }, preferences: ['sms', 'email'] };
    const id = await notify('opt-wait', waiting, 'marketing');
    // SMS answers transient: the e-mail step waits 1.5 s; the opt-out lands meanwhile.
    await waitFor('the first SMS attempt', async () => ((await readViews(platform.redis.url, [id]))[0]?.attempts.length ?? 0) >= 1 || undefined, 10_000, 20);
    await api()
      .put('/v1/recipients/waiting-user/preferences')
      .set(auth)
      .send({ categories: { marketing: { email: false } } });
    const view = await terminal(id);
    expect(view.skips).toEqual([expect.objectContaining({ channel: 'email', reason: 'opted-out' })]);
    expect(view.attempts.every((a) => a.channel === 'sms')).toBe(true);
  });
});
