import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isCliError } from '@notify/platform-kit';
import { parseChaosArgs } from '../args';
import { loadChaosConfig } from '../config';
import { findProvider } from './provider-commands';

const dir = mkdtempSync(join(tmpdir(), 'chaos-providers-'));
const file = join(dir, 'providers.yaml');
writeFileSync(
  file,
  [
    'providers:',
    '  - { name: sms-a, kind: simulator, channel: sms, url: "http://127.0.0.1:5001", controlUrl: "${SMS_A_CONTROL}" }',
    '  - { name: sms-b, kind: simulator, channel: sms, url: "http://127.0.0.1:5002" }',
    '  - { name: mail, kind: smtp, url: "smtp://u:${SMTP_PASSWORD}@127.0.0.1:25", from: a@example.com }',
    '',
  ].join('\n'),
);
const env = { PROVIDERS_FILE: file, SMS_A_CONTROL: 'http://127.0.0.1:6001/' };
const config = loadChaosConfig(env);

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return isCliError(error) ? `${error.code}: ${error.message}` : String(error);
  }
  return 'no error';
};

describe('kill-provider targets', () => {
  it('finds a simulated provider of PROVIDERS_FILE at its control API, and a default simulator by channel name', () => {
    expect(findProvider(config, env, 'sms-a')).toEqual({ name: 'sms-a', channel: 'sms', controlUrl: 'http://127.0.0.1:6001' });
    expect(findProvider(config, env, 'push')).toEqual({ name: 'push', channel: 'push', controlUrl: config.controlUrl });
  });

  it('refuses a real provider, a simulator without control API, a channel the file replaced and an unknown name', () => {
    expect(refusal(() => findProvider(config, env, 'mail'))).toBe(
      "REFUSED: provider 'mail' is a smtp provider: the chaos CLI controls simulated providers only",
    );
    expect(refusal(() => findProvider(config, env, 'sms-b'))).toMatch(/^REFUSED: provider 'sms-b' has no controlUrl/);
    expect(refusal(() => findProvider(config, env, 'sms'))).toMatch(/^USAGE: unknown provider 'sms'; known: sms-a, sms-b, mail, push$/);
    expect(refusal(() => findProvider(config, env, 'nope'))).toMatch(/^USAGE: unknown provider 'nope'/);
  });

  it('parses the commands and refuses a malformed name before any I/O', () => {
    expect(parseChaosArgs(['kill-provider', 'sms-a']).command).toEqual({ kind: 'kill-provider', provider: 'sms-a' });
    expect(parseChaosArgs(['restore-provider', 'sms-a']).command).toEqual({ kind: 'restore-provider', provider: 'sms-a' });
    expect(refusal(() => parseChaosArgs(['kill-provider']))).toMatch(/^USAGE: kill-provider needs a provider name/);
    expect(refusal(() => parseChaosArgs(['kill-provider', 'SMS A']))).toMatch(/^USAGE: 'SMS A' is not a provider name/);
  });
});
