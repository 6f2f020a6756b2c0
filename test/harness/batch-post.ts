import request from 'supertest';
import { TEST_API_KEY } from './platform';

/** One item of a batch reply. */
export interface BatchItemResult {
  httpStatus: number;
  id: string;
  status: string;
  duplicate: boolean;
}

/** POSTs `bodies` to the batch endpoint `size` at a time, expecting 200 for each batch; returns the items' results in order. */
export async function postBatches(apiUrl: string, bodies: readonly unknown[], size = 500): Promise<BatchItemResult[]> {
  const results: BatchItemResult[] = [];
  for (let i = 0; i < bodies.length; i += size) {
    const res = await request(apiUrl)
      .post('/v1/notifications/batch')
      .set('authorization', `Bearer ${TEST_API_KEY}`)
      .send({ notifications: bodies.slice(i, i + size) });
    expect(res.status).toBe(200);
    results.push(...res.body.results);
  }
  return results;
}

/** POSTs `bodies` `size` at a time as the tenant of `apiKey`, expecting every one of each batch accepted; returns their ids in order. */
export async function postAllAccepted(apiUrl: string, bodies: readonly unknown[], size: number, apiKey = TEST_API_KEY): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < bodies.length; i += size) {
    const res = await request(apiUrl)
      .post('/v1/notifications/batch')
      .set('authorization', `Bearer ${apiKey}`)
      .send({ notifications: bodies.slice(i, i + size) });
    expect(res.body.accepted).toBe(Math.min(size, bodies.length - i));
    ids.push(...res.body.results.map((r: { id: string }) => r.id));
  }
  return ids;
}
