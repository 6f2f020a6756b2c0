import { resolveSmppEndpoint, smppProviderConfigSchema } from './config';

describe('SMPP provider config', () => {
  const base = { kind: 'smpp', name: 'sms-a', sourceAddr: '+905550000000' };

  it('takes the credentials from a URL or from separate fields, with defaults', () => {
    const fromUrl = smppProviderConfigSchema.parse({ ...base, url: 'smpp://acme:p%40ss@smsc.example:2776' });
    expect(resolveSmppEndpoint(fromUrl)).toEqual({ host: 'smsc.example', port: 2776, tls: false, systemId: 'acme', password: 'p@ss' });
    expect(fromUrl).toMatchObject({ window: 10, enquireLinkMs: 30_000, timeouts: { submitMs: 10_000, unboundWaitMs: 5_000 } });
    const fields = smppProviderConfigSchema.parse({ ...base, host: 'smsc.example', systemId: 'acme', password: 'x' });
    expect(resolveSmppEndpoint(fields)).toMatchObject({ port: 2775, systemId: 'acme' });
  });

  it('refuses a config without credentials or with a bad URL, never repeating the password', () => {
    const secret = 'Zq7!pw';
    const bad = smppProviderConfigSchema.safeParse({ ...base, url: `http://acme:${secret}@smsc.example` });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).not.toContain(secret);
    expect(bad.error?.message).not.toContain(secret);
    const missing = smppProviderConfigSchema.safeParse({ ...base, host: 'smsc.example' });
    expect(missing.error?.issues.map((i) => i.path.join('.'))).toEqual(['systemId', 'password']);
    const tooLong = smppProviderConfigSchema.safeParse({ ...base, host: 'h', systemId: 'a', password: secret.repeat(8) });
    expect(tooLong.success).toBe(false);
    expect(JSON.stringify(tooLong.error?.issues)).not.toContain(secret);
  });
});
