import express, { type Express } from 'express';
import request from 'supertest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import { CHANNELS, PRIORITIES, QUEUE_PREFIX, channelQueueName } from '@notify/core';
import { createAdminConsole } from '../../apps/api/src/admin/admin-console';
import { createLoginLimiter } from '../../apps/api/src/admin/login-limiter';
import { errorMiddleware } from '../../apps/api/src/error-middleware';
import { startPrivateRedis as startTestRedis, type PrivateRedis as TestRedis } from '@notify/platform-kit';

const ADMIN_KEY = 'test-admin-key-0000000000';

let redis: TestRedis | undefined;
let queues: Queue[] = [];
let sessionRedis: Redis | undefined;
let app: Express;

beforeAll(async () => {
  redis = await startTestRedis();
  const connection = { host: '127.0.0.1', port: redis.port };
  // The six real lanes, under the real prefix: what the api will hand to the board.
  queues = CHANNELS.flatMap((channel) => PRIORITIES.map((priority) => new Queue(channelQueueName(channel, priority), { connection, prefix: QUEUE_PREFIX })));
  const pushUrgent = queues.find((q) => q.name === 'push-urgent');
  await pushUrgent?.add('step', { id: 'a'.repeat(32), rh: 'b'.repeat(32), priority: 'urgent', step: 1, channel: 'push' }, { jobId: `n-${'a'.repeat(32)}-1` });
  await pushUrgent?.add(
    'step',
    { id: 'c'.repeat(32), rh: 'd'.repeat(32), priority: 'urgent', step: 1, channel: 'push' },
    { jobId: `n-${'c'.repeat(32)}-1`, delay: 60_000 },
  );

  // Mounted the way the api mounts it: the admin console at /admin, the error middleware behind.
  sessionRedis = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  app = express();
  app.set('query parser', 'simple'); // as createApp sets it; the board's sub-app inherits it
  app.use(
    '/admin',
    createAdminConsole({
      queues,
      redis: sessionRedis,
      adminApiKey: ADMIN_KEY,
      session: { ttlSeconds: 3600, secureCookie: 'auto' },
      limiter: createLoginLimiter({ maxFailures: 100 }), // the throttle has its own test below
    }),
  );
  app.use(errorMiddleware(pino({ level: 'silent' })));
});

afterAll(async () => {
  await Promise.all(queues.map((q) => q.close()));
  await sessionRedis?.quit();
  await redis?.stop();
});

/** The console with a small throttle, mounted as the api mounts it; `trustedProxies` as ADMIN_TRUSTED_PROXIES gives them. */
function throttledApp(trustedProxies?: string[]): Express {
  const target = express();
  target.use(
    '/admin',
    createAdminConsole({
      queues,
      redis: sessionRedis!,
      adminApiKey: ADMIN_KEY,
      session: { ttlSeconds: 3600, secureCookie: 'auto' },
      limiter: createLoginLimiter({ maxFailures: 3, windowMs: 60_000 }),
      ...(trustedProxies ? { trustedProxies } : {}),
    }),
  );
  target.use(errorMiddleware(pino({ level: 'silent' })));
  return target;
}

const admin = (req: request.Test) => req.set('authorization', `Bearer ${ADMIN_KEY}`);

it('refuses without the admin key, and with a wrong key', async () => {
  expect((await request(app).get('/admin/queues')).status).toBe(401);
  expect((await request(app).get('/admin/queues/api/queues').set('authorization', 'Bearer not-the-admin-key-000')).status).toBe(403);
});

it('serves the board page with its assets under the base path', async () => {
  const page = await admin(request(app).get('/admin/queues'));
  expect(page.status).toBe(200);
  expect(page.headers['content-type']).toMatch(/text\/html/);
  // Assets are relative to <base href>, which must be the mount path or the UI loads nothing.
  expect(page.text).toContain('<base href="/admin/queues/"');
  const asset = /src="(static\/js\/main\.[^"]+\.js)"/.exec(page.text)?.[1];
  expect(asset).toBeDefined();
  const script = await admin(request(app).get(`/admin/queues/${asset}`));
  expect(script.status).toBe(200);
  expect(script.headers['content-type']).toMatch(/javascript/);
});

it('lists the six lanes with their real job counts', async () => {
  const res = await admin(request(app).get('/admin/queues/api/queues?activeQueue=push-urgent&status=waiting&page=1&jobsPerPage=10'));
  expect(res.status).toBe(200);
  const lanes = (res.body as { queues: { name: string; readOnlyMode: boolean; counts: Record<string, number> }[] }).queues;
  expect(lanes.map((q) => q.name).sort()).toEqual(['email-reminder', 'email-urgent', 'push-reminder', 'push-urgent', 'sms-reminder', 'sms-urgent']);
  const pushUrgent = lanes.find((q) => q.name === 'push-urgent');
  expect(pushUrgent?.counts).toMatchObject({ waiting: 1, delayed: 1 });
  expect(lanes.every((q) => q.readOnlyMode)).toBe(true);
  // The active lane's page lists its waiting job: a pointer, no addresses.
  const jobs =
    (res.body as { queues: { name: string; jobs: { id: string; data: Record<string, unknown> }[] }[] }).queues.find((q) => q.name === 'push-urgent')?.jobs ??
    [];
  expect(jobs.map((j) => j.id)).toEqual([`n-${'a'.repeat(32)}-1`]);
  expect(Object.keys(jobs[0]?.data ?? {}).sort()).toEqual(['channel', 'id', 'priority', 'rh', 'step']);
});

it('is read-only: emptying a lane, pausing or resuming every lane are refused (405) and nothing changes', async () => {
  const res = await admin(request(app).put('/admin/queues/api/queues/push-urgent/empty'));
  expect(res.status).toBe(405);
  const pushUrgent = queues.find((q) => q.name === 'push-urgent');
  expect(await pushUrgent?.getJobCounts('waiting', 'delayed')).toEqual({ waiting: 1, delayed: 1 });
  for (const path of ['/admin/queues/api/queues/pause', '/admin/queues/api/queues/resume', '/admin/queues/api/queues/push-urgent/pause']) {
    const write = await admin(request(app).put(path));
    expect({ path, status: write.status, code: write.body?.error?.code }).toEqual({ path, status: 405, code: expect.any(String) });
  }
  expect(await Promise.all(queues.map((q) => q.isPaused()))).toEqual(queues.map(() => false));
});

describe('browser sign-in (cookie session)', () => {
  const TENANT_KEY = 'test-key-tenant-a-00000000000000';
  /** name → the whole Set-Cookie line, from one response. */
  const setCookies = (res: request.Response): Map<string, string> => {
    const lines = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    return new Map(lines.map((line) => [line.slice(0, line.indexOf('=')), line]));
  };
  const value = (line: string | undefined) => line?.slice(line.indexOf('=') + 1, line.indexOf(';'));

  /** Opens the form and posts `key` with the form's token, from the form's own origin. */
  async function signIn(key: string, headers: Record<string, string> = {}, target: Express = app) {
    const form = await request(target).get('/admin/login');
    expect(form.status).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)?.[1];
    const loginCookie = setCookies(form).get('notify_admin_login');
    expect(csrf).toBeDefined();
    expect(value(loginCookie)).toBe(csrf);
    return request(target)
      .post('/admin/login')
      .type('form')
      .set({ cookie: `notify_admin_login=${csrf}`, origin: 'http://127.0.0.1', host: '127.0.0.1', ...headers })
      .send({ csrf: csrf!, key });
  }
  async function session() {
    const res = await signIn(ADMIN_KEY);
    const cookies = setCookies(res);
    const id = value(cookies.get('notify_admin_session'))!;
    const csrf = value(cookies.get('XSRF-TOKEN'))!;
    return { res, cookies, id, csrf, cookie: `notify_admin_session=${id}; XSRF-TOKEN=${csrf}` };
  }

  it('sends a browser without a session to the sign-in form; a script still gets 401', async () => {
    const page = await request(app).get('/admin/queues').set('accept', 'text/html,application/xhtml+xml');
    expect(page.status).toBe(303);
    expect(page.headers.location).toBe('/admin/login');
    expect((await request(app).get('/admin/queues/api/queues')).status).toBe(401);
    const form = await request(app).get('/admin/login');
    expect(form.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(form.text).toContain('type="password"');
  });

  it('signs in with the admin key: an HttpOnly SameSite=Strict session cookie opens the board and its API', async () => {
    const { res, cookies, cookie } = await session();
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/admin/queues');
    const sessionCookie = cookies.get('notify_admin_session')!;
    expect(sessionCookie).toMatch(/; Path=\/admin/);
    expect(sessionCookie).toMatch(/; HttpOnly/);
    expect(sessionCookie).toMatch(/; SameSite=Strict/);
    expect(sessionCookie).not.toMatch(/; Secure/); // plain http here; see the next test
    expect(cookies.get('XSRF-TOKEN')).not.toMatch(/HttpOnly/); // bull-board's client reads it
    const lanes = await request(app).get('/admin/queues/api/queues').set('cookie', cookie);
    expect(lanes.status).toBe(200);
    expect((lanes.body as { queues: unknown[] }).queues).toHaveLength(6);
    const page = await request(app).get('/admin/queues').set('cookie', cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Sign out');
    expect(page.headers['content-security-policy']).toContain("connect-src 'self'");
    expect(page.headers['x-frame-options']).toBe('DENY');
  });

  it('marks the cookies Secure behind https', async () => {
    const res = await signIn(ADMIN_KEY, { 'x-forwarded-proto': 'https' });
    expect(res.status).toBe(303);
    expect(setCookies(res).get('notify_admin_session')).toMatch(/; Secure/);
  });

  it('refuses a tenant key and a wrong key, without a session', async () => {
    for (const key of [TENANT_KEY, 'not-the-admin-key-0000000000000']) {
      const res = await signIn(key);
      expect(res.status).toBe(401);
      expect(res.text).toContain('not the admin key');
      expect(setCookies(res).has('notify_admin_session')).toBe(false);
    }
  });

  it('refuses a sign-in without the form token or from another site', async () => {
    const noToken = await request(app).post('/admin/login').type('form').send({ key: ADMIN_KEY });
    expect(noToken.status).toBe(403);
    const crossSite = await signIn(ADMIN_KEY, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(setCookies(crossSite).has('notify_admin_session')).toBe(false);
  });

  it('slows guessing: after 3 wrong keys from one address even the right key waits (429)', async () => {
    const throttled = throttledApp();
    for (let i = 0; i < 3; i += 1) expect((await signIn(`wrong-key-${i}-00000000000000000000`, {}, throttled)).status).toBe(401);
    const blocked = await signIn(ADMIN_KEY, {}, throttled);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(setCookies(blocked).has('notify_admin_session')).toBe(false);
  });

  it('needs the CSRF header for a state-changing board request made with the cookie', async () => {
    const { cookie, csrf } = await session();
    const noHeader = await request(app).put('/admin/queues/api/queues/push-urgent/empty').set('cookie', cookie);
    expect(noHeader.status).toBe(403);
    expect(noHeader.body).toMatchObject({ error: { code: 'FORBIDDEN' } });
    const wrongHeader = await request(app)
      .put('/admin/queues/api/queues/push-urgent/empty')
      .set({ cookie, 'x-xsrf-token': 'x'.repeat(43) });
    expect(wrongHeader.status).toBe(403);
    const crossSite = await request(app)
      .put('/admin/queues/api/queues/push-urgent/empty')
      .set({ cookie, 'x-xsrf-token': csrf, 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    // With the token it reaches bull-board, which refuses every write on the read-only lanes.
    const allowed = await request(app).put('/admin/queues/api/queues/push-urgent/empty').set({ cookie, 'x-xsrf-token': csrf });
    expect(allowed.status).toBe(405);
    expect(await queues.find((q) => q.name === 'push-urgent')?.getJobCounts('waiting', 'delayed')).toEqual({ waiting: 1, delayed: 1 });
  });

  it('signs out with a POST carrying the token; the session is then dead server-side', async () => {
    const { cookie, csrf, id } = await session();
    const confirm = await request(app).get('/admin/logout').set('cookie', cookie);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain(`value="${csrf}"`);
    const forged = await request(app).post('/admin/logout').type('form').set('cookie', cookie).send({ csrf: 'forged' });
    expect(forged.status).toBe(403);
    expect((await request(app).get('/admin/queues/api/queues').set('cookie', cookie)).status).toBe(200);

    const out = await request(app).post('/admin/logout').type('form').set({ cookie, origin: 'http://127.0.0.1', host: '127.0.0.1' }).send({ csrf });
    expect(out.status).toBe(303);
    expect(out.headers.location).toBe('/admin/login');
    expect(setCookies(out).get('notify_admin_session')).toMatch(/Expires=Thu, 01 Jan 1970/);
    // Replaying the old cookie does not work: the session is gone from Redis, not only from the browser.
    expect((await request(app).get('/admin/queues/api/queues').set('cookie', `notify_admin_session=${id}`)).status).toBe(401);
  });

  it('keeps the Bearer header for scripts: the admin key opens it, a tenant key is forbidden', async () => {
    expect((await admin(request(app).get('/admin/queues/api/queues'))).status).toBe(200);
    const tenant = await request(app).get('/admin/queues/api/queues').set('authorization', `Bearer ${TENANT_KEY}`);
    expect(tenant.status).toBe(403);
    expect(tenant.body).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });
});

describe('admin key throttle (Bearer and form) behind a trusted proxy', () => {
  const lanes = (target: Express, key: string, forwardedFor?: string) => {
    const r = request(target).get('/admin/queues/api/queues').set('authorization', `Bearer ${key}`);
    return forwardedFor ? r.set('x-forwarded-for', forwardedFor) : r;
  };

  it('throttles wrong Bearer admin keys per address: after 3, even the right key waits (429 TOO_MANY_ATTEMPTS, Retry-After)', async () => {
    const target = throttledApp();
    const answers = [];
    for (let i = 0; i < 30; i += 1) answers.push((await lanes(target, `guess${i}-0000000000000000000000`)).status);
    expect(answers.slice(0, 3)).toEqual([403, 403, 403]);
    expect(new Set(answers.slice(3))).toEqual(new Set([429]));
    const blocked = await lanes(target, ADMIN_KEY);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ error: { code: 'TOO_MANY_ATTEMPTS' } });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('without a trusted proxy X-Forwarded-For is ignored: a client cannot dodge the throttle by naming other addresses', async () => {
    const target = throttledApp();
    for (let i = 0; i < 3; i += 1) expect((await lanes(target, `nope${i}x-000000000000000000000`, `203.0.113.${i}`)).status).toBe(403);
    expect((await lanes(target, ADMIN_KEY, '198.51.100.7')).status).toBe(429);
  });

  it('behind a trusted proxy each client is counted by its own address: one guesser does not lock out another', async () => {
    const target = throttledApp(['loopback']);
    for (let i = 0; i < 3; i += 1) expect((await lanes(target, `bad${i}xx-000000000000000000000`, '203.0.113.9')).status).toBe(403);
    expect((await lanes(target, ADMIN_KEY, '203.0.113.9')).status).toBe(429);
    // Another client behind the same proxy still gets in with the right key, by Bearer and by the form.
    expect((await lanes(target, ADMIN_KEY, '198.51.100.7')).status).toBe(200);
    const form = await request(target).get('/admin/login');
    const csrf = /name="csrf" value="([^"]+)"/.exec(form.text)?.[1] ?? '';
    const signedIn = await request(target)
      .post('/admin/login')
      .type('form')
      .set({ cookie: `notify_admin_login=${csrf}`, origin: 'http://127.0.0.1', host: '127.0.0.1', 'x-forwarded-for': '198.51.100.8' })
      .send({ csrf, key: ADMIN_KEY });
    expect(signedIn.status).toBe(303);
  });

  it('throttles per key prefix too: the same wrong key from many addresses is refused after 3', async () => {
    const target = throttledApp(['loopback']);
    const answers = [];
    for (let i = 0; i < 6; i += 1) answers.push((await lanes(target, `spray0-${i}-00000000000000000000`, `203.0.113.${20 + i}`)).status);
    expect(answers).toEqual([403, 403, 403, 429, 429, 429]);
    expect((await lanes(target, ADMIN_KEY, '203.0.113.40')).status).toBe(200);
  });
});
