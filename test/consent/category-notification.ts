import request from 'supertest';

/** Posts an urgent notification to `recipient` (in `category`, if given) through the api at `apiUrl`; expects 202 and returns its id. */
export async function notifyInCategory(apiUrl: string, apiKey: string, eventId: string, recipient: object, category?: string): Promise<string> {
  const res = await request(apiUrl)
    .post('/v1/notifications')
    .set({ authorization: `Bearer ${apiKey}` })
    .send({ eventId, priority: 'urgent', recipient, content: { title: 't', body: 'b' }, ...(category ? { category } : {}) });
  expect(res.status).toBe(202);
  return res.body.id as string;
}
