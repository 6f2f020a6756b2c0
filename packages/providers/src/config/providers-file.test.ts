import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProvidersFileError, loadProvidersFile, parseProvidersFile, providerRoutes, resolveProviders } from './providers-file';

const DEFAULTS = {
  push: { url: 'http://127.0.0.1:4101' },
  sms: { url: 'http://127.0.0.1:4102' },
  email: { url: 'http://127.0.0.1:4103' },
};

const TWO_SMS = `
providers:
  - name: sms-a
    kind: simulator
    channel: sms
    url: http://127.0.0.1:5001
  - name: email-smtp
    kind: smtp
    url: smtp://mailer:\${SMTP_PASSWORD}@127.0.0.1:2525
    from: Notify <notify@example.com>
  - name: sms-b
    kind: simulator
    channel: sms
    url: http://127.0.0.1:5002
`;

describe('providers file', () => {
  it('keeps the file order per channel, fills unnamed channels with their simulator, and takes secrets from env', () => {
    const providers = resolveProviders(parseProvidersFile(TWO_SMS, { SMTP_PASSWORD: 's3cret-pass' }), DEFAULTS);
    expect(providerRoutes(providers)).toEqual({ push: ['push'], sms: ['sms-a', 'sms-b'], email: ['email-smtp'] });
    const smtp = providers.find((p) => p.name === 'email-smtp');
    expect(smtp).toMatchObject({ kind: 'smtp', channel: 'email', url: 'smtp://mailer:s3cret-pass@127.0.0.1:2525' });
    expect(providers.find((p) => p.name === 'push')).toMatchObject({ kind: 'simulator', url: 'http://127.0.0.1:4101' });
  });

  it('names an unset variable, and never prints a value', () => {
    expect(() => parseProvidersFile(TWO_SMS, {})).toThrow(new ProvidersFileError('providers[1].url refers to ${SMTP_PASSWORD}, which is not set'));
    const bad = TWO_SMS.replace('from: Notify <notify@example.com>', 'from: 42');
    let message = '';
    try {
      parseProvidersFile(bad, { SMTP_PASSWORD: 's3cret-pass' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/providers\[1\]\.from/);
    expect(message).not.toContain('s3cret-pass');
  });

  it('refuses duplicate names, unknown kinds and a kind on the wrong channel, naming the field', () => {
    const duplicate = TWO_SMS.replace('name: sms-b', 'name: sms-a');
    expect(() => parseProvidersFile(duplicate, { SMTP_PASSWORD: 'x' })).toThrow(/providers\[2\]\.name: provider name 'sms-a' is used twice/);
    expect(() => parseProvidersFile('providers:\n  - name: x\n    kind: carrier-pigeon\n', {})).toThrow(/providers\[0\]\.kind/);
    const wrongChannel = 'providers:\n  - name: mail\n    kind: smtp\n    channel: sms\n    url: smtp://127.0.0.1:25\n    from: a@example.com\n';
    expect(() => parseProvidersFile(wrongChannel, {})).toThrow(/providers\[0\]\.channel/);
    expect(() => parseProvidersFile('providers: [', {})).toThrow(/not valid YAML or JSON/);
  });

  it('refuses a name that collides with a default simulator it does not replace', () => {
    const file = 'providers:\n  - name: push\n    kind: simulator\n    channel: sms\n    url: http://127.0.0.1:5001\n';
    expect(() => resolveProviders(parseProvidersFile(file, {}), DEFAULTS)).toThrow(ProvidersFileError);
  });

  it('reads JSON and YAML files by extension', () => {
    const dir = mkdtempSync(join(tmpdir(), 'providers-file-'));
    const json = join(dir, 'providers.json');
    writeFileSync(json, JSON.stringify({ providers: [{ name: 'push-b', kind: 'simulator', channel: 'push', url: 'http://127.0.0.1:5003' }] }));
    expect(loadProvidersFile(json, {}).map((p) => p.name)).toEqual(['push-b']);
    expect(() => loadProvidersFile(join(dir, 'providers.txt'), {})).toThrow(/must end in/);
    expect(() => loadProvidersFile(join(dir, 'missing.yaml'), {})).toThrow(/cannot be read \(ENOENT\)/);
  });
});
