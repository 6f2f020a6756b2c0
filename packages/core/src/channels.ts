/** The delivery channels, in the platform's default preference order (BI4: the most used first). */
export const CHANNELS = ['push', 'sms', 'email'] as const;
export type Channel = (typeof CHANNELS)[number];

/** The two priority classes: only `urgent` carries a latency bound (mean <= 5 s). */
export const PRIORITIES = ['urgent', 'reminder'] as const;
export type Priority = (typeof PRIORITIES)[number];

export function isChannel(value: unknown): value is Channel {
  return typeof value === 'string' && (CHANNELS as readonly string[]).includes(value);
}
