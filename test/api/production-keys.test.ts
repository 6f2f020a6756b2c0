import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { DEV_DEFAULTS } from '@notify/runtime';
import { loadConfig, PRODUCTION_KEY_LENGTH } from '../../apps/api/src/config';

/**
 * Production refuses development secrets. Every message is checked against every key
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
