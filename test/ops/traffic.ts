import { TEST_API_KEY } from '../harness/platform';

export interface TrafficResult {
  accepted: number;
  ids: string[];
}

/**
 * Sends `count` notifications through the public API in batches (mixed priority, channels and
 * preference orders so every lane and label sees work). Ids are unique per `runId`.
 */
export async function sendNotifications(apiUrl: string, count: number, runId: string, batchSize = 100): Promise<TrafficResult> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += batchSize) {
    const notifications = [];
    for (let i = start; i < Math.min(count, start + batchSize); i += 1) {
      notifications.push({
        eventId: `${runId}-e${i}`,
        priority: i % 2 === 0 ? 'urgent' : 'reminder',
        recipient: {
          id: `${runId}-r${i}`,
          addresses: { push: `token-${i}`, sms: '+905551112233', email: `r${i}@example.com` },
          preferences: [
            ['push', 'sms', 'email'],
            ['sms', 'email', 'push'],
            ['email', 'push', 'sms'],
          ][i % 3],
        },
        content: { title: 'Shipment', body: `Your parcel ${i} is on its way` },
      });
    }
    const res = await fetch(`${apiUrl}/v1/notifications/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_API_KEY}` },
      body: JSON.stringify({ notifications }),
    });
    if (res.status !== 200) throw new Error(`batch intake answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { results: { id?: string; httpStatus: number }[] };
    for (const r of body.results) if (r.httpStatus === 202 && r.id) ids.push(r.id);
  }
  return { accepted: ids.length, ids };
}

/** Metric family names (from `# TYPE` lines, so metrics with no samples yet count too). */
export function metricFamilies(exposition: string): string[] {
  return [...exposition.matchAll(/^# TYPE (\S+) \S+$/gm)].map((m) => m[1] as string);
}
