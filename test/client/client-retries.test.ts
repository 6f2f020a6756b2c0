import { execFileSync } from 'node:child_process';
import { waitFor } from '@notify/platform-kit';
import { createNotifyClient, isNotifyError, type NotificationRequest, type RetryInfo } from '@notify/client';
import { spawnApp, spawnAppOnFreePorts, type AppProcess } from '../harness/app-process';
import { TEST_API_KEY, startTestPlatform, type TestPlatform } from '../harness/platform';
import { notificationFor } from '../fixtures/notifications';

/**
 * The client's retries against the real api: an api process killed while it holds the call and
 * started again (the notification is sent once), Retry-After honoured and the bounds kept, and
 * no retry of a 4xx. The platform (Redis, simulators, a worker) runs in this process; the api
 * the client talks to is a process of its own, so it can be killed.
 */
let platform: TestPlatform;
let api: AppProcess;
let ports: number[];
let apiUrl: string;

const apiEnv = (p: readonly number[]) => ({ ...platform.env, API_PORT: String(p[0]), API_METRICS_PORT: String(p[1]), LOG_LEVEL: 'warn' });

beforeAll(async () => {
  platform = await startTestPlatform();
  ({ proc: api, ports } = await spawnAppOnFreePorts('api', 2, apiEnv, (p) => `http://127.0.0.1:${p[0]}/readyz`));
  apiUrl = `http://127.0.0.1:${ports[0]}`;
});
afterAll(async () => {
  await api?.kill();
  await platform?.stop();
});

/** Connections the kernel holds on the api's port: accepted for it whether or not it runs. */
const establishedOn = (port: number) =>
  execFileSync('ss', ['-Htn', 'state', 'established', `( sport = :${port} )`])
    .toString()
    .trim()
    .split('\n')
    .filter(Boolean).length;

const deliveriesOf = async (id: string) =>
  ((await (await fetch(`${platform.sims.controlUrl}/ledger/keys/notify-${id}`)).json()) as { deliveries: unknown[] }).deliveries.length;

it("honours Retry-After, within the attempts and the time it is given, and keeps the api's code and request id", async () => {
  // The history is off in this platform: its list answers 503 DEPENDENCY_UNAVAILABLE with Retry-After: 1.
  const retries: RetryInfo[] = [];
  const client = createNotifyClient({ baseUrl: apiUrl, apiKey: TEST_API_KEY, retry: { maxAttempts: 3, baseDelayMs: 10 }, onRetry: (r) => retries.push(r) });
  const started = Date.now();
  const error = await client
    .list()
    .next()
    .catch((e: unknown) => e);
  expect(isNotifyError(error) && { code: error.code, status: error.status, retryAfterMs: error.retryAfterMs }).toEqual({
    code: 'DEPENDENCY_UNAVAILABLE',
    status: 503,
    retryAfterMs: 1000,
  });
  expect(isNotifyError(error) && error.requestId).toEqual(expect.any(String));
  expect(retries.map((r) => r.attempt)).toEqual([1, 2]);
  for (const retry of retries) expect(retry.delayMs).toBeGreaterThanOrEqual(1000);
  expect(Date.now() - started).toBeGreaterThanOrEqual(2000);

  // Bounded in time: a second wait of a second would end past maxElapsedMs, so it gives up after one.
  const inTime: RetryInfo[] = [];
  const hurried = createNotifyClient({
    baseUrl: apiUrl,
    apiKey: TEST_API_KEY,
    retry: { maxAttempts: 10, maxElapsedMs: 1_500 },
    onRetry: (r) => inTime.push(r),
  });
  await expect(hurried.list().next()).rejects.toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
  expect(inTime).toHaveLength(1);
});

it('never retries a 4xx: each answer is thrown at once with its catalog code', async () => {
  const retries: RetryInfo[] = [];
  const client = createNotifyClient({ baseUrl: apiUrl, apiKey: TEST_API_KEY, onRetry: (r) => retries.push(r) });
  const body = notificationFor(2, 'sms', { prefix: 'client-4xx' }) as NotificationRequest;
  await client.send(body);
  const refusals = [
    client.get('0'.repeat(32)),
    client.send({ ...body, priority: 'soon' as 'urgent' }),
    client.send({ ...body, content: { title: 'another', body: 'payload' } }),
    createNotifyClient({ baseUrl: apiUrl, apiKey: 'not-a-key-of-this-api-0000000000' }).get('0'.repeat(32)),
  ];
  const errors = await Promise.all(
    refusals.map((p) =>
      p.then(
        () => undefined,
        (e: unknown) => e,
      ),
    ),
  );
  expect(errors.map((e) => isNotifyError(e) && [e.status, e.code])).toEqual([
    [404, 'NOT_FOUND'],
    [400, 'VALIDATION_FAILED'],
    [422, 'IDEMPOTENCY_CONFLICT'],
    [401, 'UNAUTHORIZED'],
  ]);
  expect(isNotifyError(errors[1]) && errors[1].details.map((d) => d.field)).toEqual(['priority']);
  expect(retries).toEqual([]);
});

it('the api killed while it holds the call and started again: the client retries the same body, and it is delivered once', async () => {
  const retries: RetryInfo[] = [];
  const client = createNotifyClient({
    baseUrl: apiUrl,
    apiKey: TEST_API_KEY,
    retry: { maxAttempts: 60, baseDelayMs: 50, maxDelayMs: 250, maxElapsedMs: 60_000 },
    onRetry: (info) => retries.push(info),
  });
  const body = notificationFor(1, 'push', { prefix: 'client-restart', priority: 'urgent' }) as NotificationRequest;

  api.signal('SIGSTOP'); // frozen: the kernel still accepts the connection and takes the request
  const sending = client.send(body);
  await waitFor('the call held by the frozen api', () => establishedOn(ports[0]!) > 0, 10_000);
  api.signal('SIGKILL');
  await api.exited;
  await waitFor('a retry refused while the api is down', () => retries.some((r) => r.error.code === 'NETWORK_ERROR' && retries.length >= 2), 10_000);
  api = spawnApp('api', { ...apiEnv(ports), PATH: process.env.PATH ?? '/usr/bin:/bin' });
  await api.waitHealthy(`${apiUrl}/readyz`, { timeoutMs: 60_000 });

  const accepted = await sending;
  expect(accepted.id).toMatch(/^[0-9a-f]{32}$/);
  expect(retries.every((r) => r.method === 'POST' && r.error.status === 0)).toBe(true);
  const view = await client.waitForTerminal(accepted.id, { timeoutMs: 30_000, intervalMs: 50 });
  expect(view.status).toBe('delivered');
  // Sent again (a caller's own retry): the same event is a duplicate, still one delivery.
  await expect(client.send(body)).resolves.toMatchObject({ id: accepted.id, duplicate: true });
  expect(await deliveriesOf(accepted.id)).toBe(1);
});

// Last: it leaves the api down.
it('a call that is not idempotent is not retried once it may have reached the api', async () => {
  const retries: RetryInfo[] = [];
  const client = createNotifyClient({ baseUrl: apiUrl, apiKey: TEST_API_KEY, retry: { maxAttempts: 5, baseDelayMs: 50 }, onRetry: (r) => retries.push(r) });
  api.signal('SIGSTOP');
  const creating = client.webhooks.create({ url: 'https://hooks.example.com/in', events: ['notification.delivered'] }).catch((e: unknown) => e);
  await waitFor('the call held by the frozen api', () => establishedOn(ports[0]!) > 0, 10_000);
  api.signal('SIGKILL');
  await api.exited;
  const error = await creating;
  expect(isNotifyError(error) && error.code).toBe('NETWORK_ERROR');
  expect(retries).toEqual([]);
});
