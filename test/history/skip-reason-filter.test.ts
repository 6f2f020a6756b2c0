import request from 'supertest';
import { waitFor } from '@notify/platform-kit';
import { TEST_API_KEY } from '../harness/platform';
import { notifyInCategory } from '../consent/category-notification';
import { startHistoryPlatform, type HistoryPlatform } from './history-platform';

/**
 * The history lists' `skipReason` filter through the real pipeline and archiver: a notification
 * with a channel skipped as opted out (delivered on another), one whose every channel was opted
 * out (status opted-out), and one with no skip; only the first two are found.
 */
let hp: HistoryPlatform;
beforeAll(async () => {
  hp = await startHistoryPlatform('skip_reason_filter', {
    simEnv: { SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,0,0' },
    // The tenant's first opt-out applies at once (by default within CONSENT_CACHE_MS, 5 s).
    env: { CONSENT_CACHE_MS: '0' },
  });
});
afterAll(async () => {
  await hp?.stop();
});

const auth = { authorization: `Bearer ${TEST_API_KEY}` };
const api = () => request(hp.platform.api.url);
const recipient = { id: 'skip-user', addresses: { push: 'tok-skip', email: 'skip@example.com' }, preferences: ['email', 'push'] };

const notify = (eventId: string, category?: string) => notifyInCategory(hp.platform.api.url, TEST_API_KEY, eventId, recipient, category);

const archived = (id: string) => waitFor(`${id} in the history`, async () => hp.store.get('tenant-a', id), 30_000, 100);
const optOut = (body: object) => api().put('/v1/recipients/skip-user/preferences').set(auth).send(body);
const listIds = async (path: string, query: Record<string, string>) => {
  const res = await api().get(path).query(query).set(auth);
  expect(res.status).toBe(200);
  return (res.body.items as { id: string }[]).map((i) => i.id);
};

it('finds the notifications with an opted-out skip, and not the others', async () => {
  expect((await api().put('/v1/categories/marketing').set(auth).send({ name: 'Marketing' })).status).toBe(201);
  expect((await optOut({ categories: { marketing: { email: false } } })).status).toBe(200);
  const skipped = await notify('skip-1', 'marketing');
  const plain = await notify('skip-2');
  // Both ended before push is opted out too (every step asks again).
  expect(await archived(skipped)).toMatchObject({ status: 'delivered', skips: [expect.objectContaining({ channel: 'email', reason: 'opted-out' })] });
  expect(await archived(plain)).toMatchObject({ status: 'delivered', skips: [] });
  expect((await optOut({ channels: { push: false }, categories: { marketing: { email: false } } })).status).toBe(200);
  const none = await notify('skip-3', 'marketing');
  expect(await archived(none)).toMatchObject({ status: 'opted-out', failureReason: 'all-channels-opted-out' });

  const found = await listIds('/v1/notifications', { skipReason: 'opted-out' });
  expect(new Set(found)).toEqual(new Set([skipped, none]));
  expect(await listIds('/v1/notifications', { skipReason: 'opted-out', status: 'opted-out' })).toEqual([none]);
  expect(await listIds('/v1/notifications', { status: 'opted-out' })).toEqual([none]);
  expect(await listIds('/v1/notifications', { status: 'failed' })).toEqual([]);
  expect(await listIds('/v1/recipients/skip-user/notifications', { skipReason: 'opted-out', limit: '1' })).toHaveLength(1);
  expect(await listIds('/v1/notifications', { skipReason: 'suppressed' })).toEqual([]);
  // The skip bits leave the channel filter as it was: the plain one made its call on e-mail.
  expect(await listIds('/v1/notifications', { channel: 'email' })).toEqual([plain]);
});

it('refuses an unknown skip reason, and one with status=scheduled, with a 400 naming skipReason', async () => {
  for (const query of [{ skipReason: 'bored' }, { skipReason: 'opted-out', status: 'scheduled' }]) {
    const res = await api().get('/v1/notifications').query(query).set(auth);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'skipReason' })]);
  }
});
