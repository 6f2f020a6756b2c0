import request from 'supertest';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';
import { waitFor } from '@notify/platform-kit';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform?.stop();
});

it('delivers one notification end to end', async () => {
  const res = await request(platform.api.url)
    .post('/v1/notifications')
    .set('authorization', `Bearer ${TEST_API_KEY}`)
    .send({ eventId: 'e1', priority: 'urgent', recipient: { id: 'r1', addresses: { email: 'a@example.com' } }, content: { title: 'Hi', body: 'There' } });
  expect(res.status).toBe(202);
  const view = await waitFor('delivered', async () => {
    const s = await request(platform.api.url).get(`/v1/notifications/${res.body.id}`).set('authorization', `Bearer ${TEST_API_KEY}`);
    return s.body.status === 'delivered' ? s.body : undefined;
  });
  expect(view).toMatchObject({ deliveredChannel: 'email', plan: ['email'] });
});
