import { CHANNELS, seededRandom, type Channel } from '@notify/core';

/** BI4: preference shares push / SMS / e-mail. */
export const PREFERENCE_SHARES: Record<Channel, number> = { push: 0.55, sms: 0.25, email: 0.2 };

/**
 * The brief's traffic: recipients with all three addresses, preferring a channel by BI4's
 * shares, `urgentShare` of them urgent. Event ids carry the run id, so runs never collide.
 */
export function createTraffic(runId: string, seed: number, urgentShare: number) {
  const random = seededRandom(seed);
  let index = 0;
  return (): Record<string, unknown> => {
    index += 1;
    let u = random();
    let preferred: Channel = 'email';
    for (const channel of CHANNELS) {
      if (u < PREFERENCE_SHARES[channel]) { preferred = channel; break; }
      u -= PREFERENCE_SHARES[channel];
    }
    const urgent = random() < urgentShare;
    return {
      eventId: `${runId}-${index}`,
      priority: urgent ? 'urgent' : 'reminder',
      recipient: {
        id: `load-${runId}-${index}`,
        addresses: { push: `token-${runId}-${index}`, sms: `+90555${String(index % 10_000_000).padStart(7, '0')}`, email: `load${index}@example.com` },
        preferences: [preferred, ...CHANNELS.filter((c) => c !== preferred)],
      },
      content: { title: urgent ? 'Kargonuz dağıtımda' : 'Hatırlatma', body: `Bildirim ${index}` },
    };
  };
}
