import request from 'supertest';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { waitAllTerminal } from '../harness/notification-poll';
import { readLedger } from '@notify/platform-kit';

/**
 * A permanent failure suppresses (recipient, channel): the next notification skips the channel
 * without spending a call; replacing the stored profile lifts the suppression. A suppressed
 * channel is passed over where the step is scheduled (intake, the cascade's next step), so it
 * never gets a lane job: the call that delivers is step 1 at intake, the next step in a cascade.
 */
let platform: TestPlatform;
beforeAll(async () => {
  // Every SMS address fails permanently; nothing fails transiently.
  platform = await startTestPlatform({ simEnv: { SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,1,0' } });
});
afterAll(async () => {
  await platform?.stop();
});

const auth = { authorization: `Bearer ${TEST_API_KEY}` };
const profile = { addresses: { sms: '+905551234567', email: 'sup@example.com' }, preferences: ['sms', 'email'] };

async function notify(eventId: string) {
  const res = await request(platform.api.url)
    .post('/v1/notifications')
    .set(auth)
    .send({ eventId, priority: 'urgent', recipient: { id: 'suppressed-user' }, content: { title: 't', body: 'b' } });
  expect(res.status).toBe(202);
  const [view] = await waitAllTerminal(platform.redis.url, [res.body.id], 20_000);
  return view!;
}

const smsCalls = async () => (await readLedger(platform.sims.controlUrl)).calls.sms ?? 0;

it('skips a channel that failed permanently for this recipient, until the profile changes', async () => {
  expect((await request(platform.api.url).put('/v1/recipients/suppressed-user').set(auth).send(profile)).status).toBe(201);

  const first = await notify('sup-1');
  expect(first.attempts.map((a) => [a.channel, a.outcome])).toEqual([
    ['sms', 'permanent'],
    ['email', 'delivered'],
  ]);
  const callsAfterFirst = await smsCalls();

  const second = await notify('sup-2');
  expect(second.attempts.map((a) => [a.channel, a.outcome, a.step])).toEqual([['email', 'delivered', 1]]);
  expect(second.skips).toEqual([expect.objectContaining({ channel: 'sms', reason: 'suppressed' })]);
  expect(await smsCalls()).toBe(callsAfterFirst);

  expect((await request(platform.api.url).put('/v1/recipients/suppressed-user').set(auth).send(profile)).status).toBe(200);
  const third = await notify('sup-3');
  expect(third.attempts[0]).toMatchObject({ channel: 'sms', outcome: 'permanent' });
  expect(await smsCalls()).toBe(callsAfterFirst + 1);
});

it('the cascade passes over a suppressed channel when it schedules the next step', async () => {
  const withPush = { addresses: { sms: '+905557654321', email: 'sup2@example.com', push: 'push-token-sup2' }, preferences: ['sms', 'email', 'push'] };
  expect((await request(platform.api.url).put('/v1/recipients/cascade-user').set(auth).send(withPush)).status).toBe(201);
  const suppressed = await request(platform.api.url)
    .post('/v1/suppressions')
    .set(auth)
    .send({ recipientId: 'cascade-user', channel: 'email', reason: 'manual' });
  expect(suppressed.status).toBe(201);
  const res = await request(platform.api.url)
    .post('/v1/notifications')
    .set(auth)
    .send({ eventId: 'sup-cascade', priority: 'urgent', recipient: { id: 'cascade-user' }, content: { title: 't', body: 'b' } });
  expect(res.status).toBe(202);
  const [view] = await waitAllTerminal(platform.redis.url, [res.body.id], 20_000);
  expect(view!.attempts.map((a) => [a.channel, a.outcome, a.step])).toEqual([
    ['sms', 'permanent', 1],
    ['push', 'delivered', 2],
  ]);
  expect(view!.skips).toEqual([expect.objectContaining({ channel: 'email', reason: 'suppressed' })]);
});
