import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { DEV_DEFAULTS } from '@notify/runtime';
import { loadConfig, PRODUCTION_KEY_LENGTH } from '../../apps/api/src/config';

/**
 * Production refuses development secrets, short or low-variety keys and secrets, and a secret
 * shared with a key or another provider. Every message is checked against every key
 * it was given: no key, nor any 6-character piece of one, may appear in a start-up error.
 */
const TENANT_KEY = 'Kq7vX2mPz9LwR4tYb8NcJ5hGd3FsA6eU01';
const OTHER_KEY = 'Tn3bW8yQc5ZrV1kXj6MfH9pLs2DgE7uA02';
const ADMIN_KEY = 'Rz4hN9vB2xK7mQ5wT1cY8jF3pL6dG0sA03';
const PROD = { NODE_ENV: 'production', API_KEYS: `${TENANT_KEY}:tenant-a,${OTHER_KEY}:tenant-b`, ADMIN_API_KEY: ADMIN_KEY };

function failure(env: Record<string, string | undefined>): string {
  try {
    loadConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('loadConfig accepted the configuration');
}

/** No 6-character piece of any key in `text`: not the key, nor a prefix or suffix of it. */
function expectNoKeyIn(text: string, keys: string[]): void {
  for (const key of keys) {
    for (let i = 0; i + 6 <= key.length; i += 1) expect(text).not.toContain(key.slice(i, i + 6));
  }
}

describe('api keys in production', () => {
  it('starts with explicit, long, distinct keys', () => {
    const config = loadConfig(PROD);
    expect(config.apiKeys).toEqual([
      { key: TENANT_KEY, tenant: 'tenant-a' },
      { key: OTHER_KEY, tenant: 'tenant-b' },
    ]);
    expect(config.adminApiKey).toBe(ADMIN_KEY);
  });

  it('refuses to start without API_KEYS and ADMIN_API_KEY (the development defaults are public)', () => {
    const message = failure({ NODE_ENV: 'production' });
    expect(message).toMatch(/API_KEYS: must be set when NODE_ENV=production/);
    expect(message).toMatch(/ADMIN_API_KEY: must be set when NODE_ENV=production/);
    expectNoKeyIn(message, [DEV_DEFAULTS.apiKey, DEV_DEFAULTS.adminApiKey]);
  });

  it(`refuses keys shorter than ${PRODUCTION_KEY_LENGTH} characters, naming the pair, not the key`, () => {
    const shortTenant = 'Hb5Wq2Xn8Vr4Kt7Zm1'; // 18 characters: fine in development
    const shortAdmin = 'Pj6Dc3Ys9Ug1Fa4Lw7';
    const message = failure({ ...PROD, API_KEYS: `${TENANT_KEY}:tenant-a,${shortTenant}:tenant-b`, ADMIN_API_KEY: shortAdmin });
    expect(message).toMatch(/API_KEYS: the key of pair 2 is shorter than 32 characters/);
    expect(message).toMatch(/ADMIN_API_KEY: is shorter than 32 characters/);
    expectNoKeyIn(message, [shortTenant, shortAdmin, TENANT_KEY]);
    // The same keys are accepted outside production.
    expect(loadConfig({ ...PROD, NODE_ENV: 'development', API_KEYS: `${shortTenant}:tenant-b`, ADMIN_API_KEY: shortAdmin }).apiKeys).toHaveLength(1);
  });

  it.each(['production', 'development', 'test'])('refuses one key for two tenants (%s): the last one no longer silently wins', (mode) => {
    const message = failure({ ...PROD, NODE_ENV: mode, API_KEYS: `${TENANT_KEY}:tenant-a,${OTHER_KEY}:tenant-b,${TENANT_KEY}:tenant-c` });
    expect(message).toMatch(/API_KEYS: pairs 1 and 3 use the same key/);
    expectNoKeyIn(message, [TENANT_KEY, OTHER_KEY]);
  });

  it.each(['production', 'development'])('refuses an admin key equal to a tenant key (%s)', (mode) => {
    const message = failure({ ...PROD, NODE_ENV: mode, ADMIN_API_KEY: OTHER_KEY });
    expect(message).toMatch(/ADMIN_API_KEY: must differ from every tenant key \(it equals the key of API_KEYS pair 2\)/);
    expectNoKeyIn(message, [OTHER_KEY, TENANT_KEY]);
  });

  it('never echoes a malformed pair', () => {
    const secretish = 'Gx2Nc8Vb5Qm1Zr7Kw4Jt9';
    const message = failure({ ...PROD, API_KEYS: `${secretish}`, ADMIN_API_KEY: ADMIN_KEY });
    expect(message).toMatch(/API_KEYS: pair 1 must be <key of 16\+ characters>:<tenant>/);
    expectNoKeyIn(message, [secretish]);
  });

  it.each(['production', 'development'])('refuses an empty API_KEYS (%s) with a message, not a crash', (mode) => {
    const message = failure({ ...PROD, NODE_ENV: mode, API_KEYS: '' });
    expect(message).toMatch(/^invalid api configuration:\n {2}API_KEYS: must list at least one key:tenant pair$/m);
    expect(message).not.toMatch(/is not a function/);
  });

  it.each([' ', ',', ' , ,'])('refuses API_KEYS=%j: a list of zero keys', (value) => {
    expect(failure({ ...PROD, API_KEYS: value })).toMatch(/API_KEYS: must list at least one key:tenant pair/);
  });

  it('trims keys and tenants, so a key written twice with spaces is still one key twice', () => {
    const message = failure({ ...PROD, API_KEYS: `${TENANT_KEY}:tenant-a, ${TENANT_KEY} :tenant-b` });
    expect(message).toMatch(/API_KEYS: pairs 1 and 2 use the same key/);
    expectNoKeyIn(message, [TENANT_KEY]);
    expect(loadConfig({ ...PROD, API_KEYS: ` ${TENANT_KEY} : tenant-a , ${OTHER_KEY}:tenant-b ` }).apiKeys).toEqual([
      { key: TENANT_KEY, tenant: 'tenant-a' },
      { key: OTHER_KEY, tenant: 'tenant-b' },
    ]);
    expect(loadConfig({ ...PROD, ADMIN_API_KEY: ` ${ADMIN_KEY} ` }).adminApiKey).toBe(ADMIN_KEY);
  });

  it.each([
    ['32 × one character', 'a'.repeat(32)],
    ['two characters repeated', 'ab'.repeat(20)],
    ['seven different characters', 'abcdefg'.repeat(5)],
  ])('refuses a low-variety key in production (%s)', (_what, weak) => {
    const message = failure({ ...PROD, API_KEYS: `${weak}:tenant-a`, ADMIN_API_KEY: `${weak.toUpperCase()}` });
    expect(message).toMatch(/API_KEYS: the key of pair 1 uses fewer than 8 different characters/);
    expect(message).toMatch(/ADMIN_API_KEY: uses fewer than 8 different characters/);
    expectNoKeyIn(message, [weak, weak.toUpperCase()]);
    // Outside production the same keys still start (the development rules are unchanged).
    expect(loadConfig({ ...PROD, NODE_ENV: 'development', API_KEYS: `${weak}:tenant-a` }).apiKeys).toHaveLength(1);
  });
});

describe('provider event secrets in production', () => {
  const EMAIL_SECRET = 'Wm5cQ8tZ2vN7xK4bR1jH6pF9sL3dG0yE04';
  const SMS_SECRET = 'Bx8nT3qV6mZ1cK9wR4hJ7yF2pL5sD0gA05';

  it('starts with a long, varied secret of its own per provider', () => {
    const config = loadConfig({ ...PROD, PROVIDER_EVENT_SECRETS: `email:${EMAIL_SECRET},sms:${SMS_SECRET}` });
    expect([...config.providerEvents.secrets]).toEqual([
      ['email', EMAIL_SECRET],
      ['sms', SMS_SECRET],
    ]);
  });

  it.each([
    ['shorter than 32 characters', `email:${'Hb5Wq2Xn8Vr4Kt7Zm1'}`, /PROVIDER_EVENT_SECRETS: the secret of provider 'email' is shorter than 32 characters/],
    ['low in variety', `email:${'xy'.repeat(20)}`, /PROVIDER_EVENT_SECRETS: the secret of provider 'email' uses fewer than 8 different characters/],
    ['a tenant key', `email:${OTHER_KEY}`, /PROVIDER_EVENT_SECRETS: the secret of provider 'email' equals the key of API_KEYS pair 2/],
    ['the admin key', `email:${ADMIN_KEY}`, /PROVIDER_EVENT_SECRETS: the secret of provider 'email' equals ADMIN_API_KEY/],
    [
      "another provider's",
      `email:${EMAIL_SECRET},sms:${SMS_SECRET},push:${EMAIL_SECRET}`,
      /PROVIDER_EVENT_SECRETS: providers 'email' and 'push' share one secret/,
    ],
  ])('refuses a secret that is %s', (_what, secrets, expected) => {
    const message = failure({ ...PROD, PROVIDER_EVENT_SECRETS: secrets });
    expect(message).toMatch(expected);
    expectNoKeyIn(message, [EMAIL_SECRET, SMS_SECRET, TENANT_KEY, OTHER_KEY, ADMIN_KEY]);
  });

  it('keeps the development rules outside production (16+ characters)', () => {
    const config = loadConfig({ ...PROD, NODE_ENV: 'development', PROVIDER_EVENT_SECRETS: `email:${'Hb5Wq2Xn8Vr4Kt7Zm1'},sms:${OTHER_KEY}` });
    expect(config.providerEvents.secrets.size).toBe(2);
  });

  it('names every bad variable in one message', () => {
    const message = failure({
      NODE_ENV: 'production',
      API_KEYS: '',
      ADMIN_API_KEY: 'a'.repeat(40),
      PROVIDER_EVENT_SECRETS: `email:${EMAIL_SECRET},sms:${EMAIL_SECRET}`,
      LOG_LEVEL: 'loud',
    });
    const named = message
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(':')[0]);
    expect(new Set(named)).toEqual(new Set(['API_KEYS', 'ADMIN_API_KEY', 'PROVIDER_EVENT_SECRETS', 'LOG_LEVEL']));
    expectNoKeyIn(message, [EMAIL_SECRET, 'a'.repeat(40)]);
  });
});

describe('the api process', () => {
  it('the api process exits 1 with one readable line and no key on stderr', async () => {
    const root = resolve(__dirname, '../..');
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/main.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        NODE_ENV: 'production',
        API_KEYS: `${TENANT_KEY}:a,${TENANT_KEY}:b`,
        ADMIN_API_KEY: TENANT_KEY,
        API_PORT: '0',
        API_METRICS_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const code = await new Promise<number | null>((done) => child.once('exit', (c) => done(c)));
    expect(code).toBe(1);
    expect(output).toMatch(/^api failed to start: invalid api configuration:/);
    expect(output).toMatch(/pairs 1 and 2 use the same key/);
    expectNoKeyIn(output, [TENANT_KEY]);
  }, 60_000);
});
