import { DEFAULT_RETRY } from './retry-policy';
import { send, type RetryInfo } from './transport';

/** A fetch that answers each call with the next of `answers` and counts the calls. */
function scripted(answers: { status: number; code: string; retryAfter: string }[]) {
  let calls = 0;
  const fetch = (async () => {
    const answer = answers[Math.min(calls, answers.length - 1)]!;
    calls += 1;
    const body = answer.status < 400 ? { id: 'n1' } : { error: { code: answer.code, message: answer.code } };
    return new Response(JSON.stringify(body), { status: answer.status, headers: { 'content-type': 'application/json', 'retry-after': answer.retryAfter } });
  }) as typeof globalThis.fetch;
  return { fetch, calls: () => calls };
}

const options = (fetch: typeof globalThis.fetch, retries: RetryInfo[]) => ({
  baseUrl: 'http://api.invalid',
  apiKey: 'k',
  retry: { ...DEFAULT_RETRY, baseDelayMs: 1 },
  timeoutMs: 1000,
  fetch,
  onRetry: (r: RetryInfo) => retries.push(r),
});
const intake = { method: 'POST' as const, path: '/v1/notifications', body: {}, idempotent: true };

describe('retries of a tenant limit', () => {
  it("retries 429 RATE_LIMITED no sooner than the api's Retry-After", async () => {
    const api = scripted([
      { status: 429, code: 'RATE_LIMITED', retryAfter: '1' },
      { status: 202, code: '', retryAfter: '' },
    ]);
    const retries: RetryInfo[] = [];
    await expect(send(options(api.fetch, retries), intake)).resolves.toMatchObject({ status: 202 });
    expect(api.calls()).toBe(2);
    expect(retries[0]?.error.code).toBe('RATE_LIMITED');
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(1000);
  });

  it('does not retry 429 QUOTA_EXCEEDED: it lasts until the UTC day ends', async () => {
    const api = scripted([{ status: 429, code: 'QUOTA_EXCEEDED', retryAfter: '3600' }]);
    const retries: RetryInfo[] = [];
    await expect(send(options(api.fetch, retries), intake)).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', status: 429, retryAfterMs: 3_600_000 });
    expect(api.calls()).toBe(1);
    expect(retries).toEqual([]);
  });
});
