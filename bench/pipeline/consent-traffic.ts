import type { NotificationRequest } from '@notify/core';

/**
 * `--consent`: the traffic with categories and opt-outs in use, as a tenant with a preference
 * centre sends it. Three categories (one required), a pool of recipients that come back (not a
 * new recipient per notification), a fifth of them opted out of campaign e-mail and one in
 * twenty of SMS altogether. The same notifications otherwise: only the category and the
 * recipient id change, so the cost measured is the consent checks'.
 */
const POOL = 5_000;
const CATEGORIES = [
  { id: 'orders', body: { name: 'Order updates', required: false } },
  { id: 'campaigns', body: { name: 'Campaigns', required: false, channels: ['email', 'push'] } },
  { id: 'security', body: { name: 'Security codes', required: true } },
] as const;

const recipientOf = (index: number) => `consent-r${index % POOL}`;

/** What recipient `i` of the pool has chosen (most have chosen nothing). */
function preferencesOf(i: number): object | undefined {
  if (i % 20 === 0) return { channels: { sms: false } };
  if (i % 5 === 0) return { categories: { campaigns: { email: false } } };
  return undefined;
}

async function put(apiUrl: string, apiKey: string, path: string, body: object): Promise<void> {
  const res = await fetch(`${apiUrl}${path}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`PUT ${path}: ${res.status} ${await res.text()}`);
}

/** Defines the categories and stores the pool's preferences (before the first rate). */
export async function setUpConsent(apiUrl: string, apiKey: string): Promise<void> {
  for (const c of CATEGORIES) await put(apiUrl, apiKey, `/v1/categories/${c.id}`, c.body);
  const chosen = Array.from({ length: POOL }, (_, i) => i).filter((i) => preferencesOf(i) !== undefined);
  for (let at = 0; at < chosen.length; at += 50) {
    await Promise.all(chosen.slice(at, at + 50).map((i) => put(apiUrl, apiKey, `/v1/recipients/${recipientOf(i)}/preferences`, preferencesOf(i) as object)));
  }
}

/** Six in ten orders, three campaigns, one security code; the recipient from the pool. */
export function withConsent(request: NotificationRequest, index: number): NotificationRequest {
  const roll = index % 10;
  const category = roll < 6 ? 'orders' : roll < 9 ? 'campaigns' : 'security';
  return { ...request, category, recipient: { ...request.recipient, id: recipientOf(index) } };
}
