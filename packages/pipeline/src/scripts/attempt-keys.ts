import { notificationKey, suppressionKey, type Channel } from '@notify/core';

/**
 * KEYS[1] and KEYS[2] of begin-attempt-4.lua and finish-attempt-4.lua: the notification's record
 * and the suppression key of its (recipient, channel), which one checks and the other sets.
 */
export function attemptKeys(a: { id: string; rh: string; channel: Channel }, partition: number): [string, string] {
  return [notificationKey(a.id, partition), suppressionKey(a.rh, a.channel, partition)];
}
