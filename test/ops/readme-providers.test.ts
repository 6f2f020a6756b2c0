import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import webPush from 'web-push';
import { parseProvidersFile, providerRoutes, resolveProviders } from '@notify/providers';

/**
 * The README's "Connecting real providers" example is a working PROVIDERS_FILE: every entry
 * validates against its kind's schema once its `${...}` secrets are set.
 */
it("the README's PROVIDERS_FILE example validates, one provider of every real kind", () => {
  const readme = readFileSync(join(__dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Connecting real providers'));
  const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  expect(yaml).toBeDefined();
  const vapid = webPush.generateVAPIDKeys();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const serviceAccount = JSON.stringify({
    type: 'service_account',
    project_id: 'notify-example',
    client_email: 'notify@notify-example.iam.gserviceaccount.com',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  });
  const env = {
    SMTP_PASSWORD: 'smtp-secret',
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    FCM_SERVICE_ACCOUNT: serviceAccount,
    SMPP_PASSWORD: 'smpp-pw',
    SMS_ACCOUNT: 'AC0000',
    SMS_TOKEN: 'sms-token',
  };
  const providers = resolveProviders(parseProvidersFile(yaml as string, env), {
    push: { url: 'http://127.0.0.1:4101' },
    sms: { url: 'http://127.0.0.1:4102' },
    email: { url: 'http://127.0.0.1:4103' },
  });
  expect(providers.map((p) => p.kind).sort()).toEqual(['fcm', 'http-sms', 'smpp', 'smtp', 'web-push']);
  expect(providerRoutes(providers)).toEqual({ push: ['push-web', 'push-fcm'], sms: ['sms-smpp', 'sms-http'], email: ['email-smtp'] });
});
