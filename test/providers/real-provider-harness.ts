import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { isTerminal, type NotificationView } from '@notify/core';
import { waitFor } from '@notify/platform-kit';
import { readViews } from '../harness/notification-poll';
import { startTestPlatform, TEST_API_KEY, type TestPlatform } from '../harness/platform';

/**
 * Shared by the real-provider integration tests (api → Redis → worker → adapter → loopback peer,
 * the peers from @notify/providers/testing): a PROVIDERS_FILE naming the peers' provider entries,
 * posting one notification, waiting for its terminal record.
 */

/**
 * Writes `providers:` and the entries to a temp file; returns its path. An entry is a provider
 * (a peer's `providerConfig()`, written as a JSON flow mapping, which YAML reads) or YAML lines
 * indented by the caller.
 */
export function writeProvidersFile(entries: readonly (object | string)[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'real-providers-')), 'providers.yaml');
  const lines = entries.map((entry) => (typeof entry === 'string' ? entry : `  - ${JSON.stringify(entry)}`));
  writeFileSync(file, ['providers:', ...lines, ''].join('\n'), { mode: 0o600 });
  return file;
}

/** The test platform with one worker and PROVIDERS_FILE naming `providers` (the peers' `providerConfig()`); `env` on top. */
export function startWithProviders(providers: readonly object[], env: Record<string, string> = {}): Promise<TestPlatform> {
  return startTestPlatform({ workerCount: 1, env: { PROVIDERS_FILE: writeProvidersFile(providers), ...env } });
}

/** POSTs one notification; returns its id (expects 202). */
export async function postNotification(apiUrl: string, body: unknown, apiKey = TEST_API_KEY): Promise<string> {
  const res = await request(apiUrl)
    .post('/v1/notifications')
    .set('authorization', `Bearer ${apiKey}`)
    .send(body as object);
  if (res.status !== 202) throw new Error(`POST /v1/notifications answered ${res.status}: ${JSON.stringify(res.body)}`);
  return (res.body as { id: string }).id;
}

/** Waits until the notification is terminal; returns its record (read from Redis). */
export async function waitTerminal(redisUrl: string, id: string, timeoutMs = 30_000): Promise<NotificationView> {
  return waitFor(
    `notification ${id} terminal`,
    async () => {
      const [view] = await readViews(redisUrl, [id]);
      return view && isTerminal(view.status) ? view : undefined;
    },
    timeoutMs,
    100,
  );
}

/** A notification whose plan is exactly `channel` (only that address, preferences [channel]). */
export function oneChannel(channel: 'email' | 'sms' | 'push', eventId: string, recipientId: string, address: unknown, content: object) {
  return { eventId, priority: 'urgent', recipient: { id: recipientId, addresses: { [channel]: address }, preferences: [channel] }, content };
}

/** Turkish content: dotted/dotless i, ğ, ş, ç, ö, ü in title and body. */
export const TURKISH = {
  title: 'Şifre sıfırlama — İstanbul',
  body: 'Merhaba Ayşe, doğrulama kodunuz 482913. Kimseyle paylaşmayın; iyi günler dileriz! ĞÜŞİÖÇ ığüşöç',
};
