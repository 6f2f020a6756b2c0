import { PUSH_PAYLOAD_LIMIT_BYTES, minimalPushBytes, notificationRequestSchema, parseOrThrow, renderForChannel, type RenderedMessage } from '@notify/core';
import { WebPushAdapter } from '@notify/providers';
import { LoopbackPushService } from '@notify/providers/testing';

/**
 * Intake and the Web Push adapter share one push payload limit: what intake accepts, the
 * renderer fits, and the adapter carries in its one 4096-byte record. A payload between the
 * adapter's limit and 4 KB used to pass intake and be refused at delivery as payload-too-large.
 */
let service: LoopbackPushService;
let adapter: WebPushAdapter;

beforeAll(async () => {
  service = await LoopbackPushService.start();
  adapter = new WebPushAdapter(service.providerConfig({ timeouts: { connectMs: 1_000, requestMs: 5_000 } }));
});
afterAll(async () => {
  await adapter?.close();
  await service?.close();
});

/** Push data that makes the smallest payload (the body cut to '…') exactly `bytes` long. */
function dataOf(bytes: number): Record<string, string> {
  // Five entries (a value holds at most 1,024 characters); the last one takes the remainder.
  const data: Record<string, string> = { a: 'x'.repeat(900), b: 'x'.repeat(900), c: 'x'.repeat(900), d: 'x'.repeat(900), e: '' };
  data.e = 'x'.repeat(bytes - minimalPushBytes({ title: 'T', data }));
  return data;
}
const request = (content: Record<string, unknown>) => ({
  eventId: 'e-1',
  priority: 'urgent',
  recipient: { id: 'r-1', addresses: { push: 'tok' } },
  content: { title: 'T', body: 'b'.repeat(4_000), ...content },
});

it('the Web Push adapter carries exactly the push payload limit intake checks', () => {
  expect(adapter.capabilities.maxPayloadBytes).toBe(PUSH_PAYLOAD_LIMIT_BYTES);
});

it('refuses at intake (400 naming the field) a push payload over the adapter limit, for every size up to 4 KB', () => {
  for (const bytes of [PUSH_PAYLOAD_LIMIT_BYTES + 1, 3_994, 4_050, 4_096]) {
    const data = dataOf(bytes);
    expect(minimalPushBytes({ title: 'T', data })).toBe(bytes);
    let refused: unknown;
    try {
      parseOrThrow(notificationRequestSchema, request({ overrides: { push: { data } } }));
    } catch (error) {
      refused = error;
    }
    expect({ bytes, refused }).toMatchObject({ bytes, refused: { httpStatus: 400, details: [{ field: 'content.overrides.push.data' }] } });
  }
});

it('delivers over Web Push whatever intake accepts: the largest data, and a body long enough to be cut', async () => {
  const accepted = [request({ overrides: { push: { data: dataOf(PUSH_PAYLOAD_LIMIT_BYTES) } } }), request({}), request({ body: 'ş"'.repeat(2_000) })].map(
    (body) => parseOrThrow(notificationRequestSchema, body),
  );
  for (const [index, body] of accepted.entries()) {
    const message = renderForChannel('push', body.content, { smsMaxSegments: 10 }) as Extract<RenderedMessage, { channel: 'push' }>;
    const { id, ...address } = service.subscribe('accept');
    const result = await adapter.send({ notificationId: `n-${index}`, idempotencyKey: `k-${index}`, to: JSON.stringify(address), message, priority: 'urgent' });
    expect({ index, bytes: message.push.bytes, outcome: result.outcome }).toEqual({ index, bytes: message.push.bytes, outcome: 'delivered' });
    expect(service.received.some((push) => push.subscriptionId === id)).toBe(true);
  }
});
