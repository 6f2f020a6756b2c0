import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { defineLuaCommands } from './lua-commands';

/**
 * The Lua scripts, one state change each (BullMQ's convention: `name-<numberOfKeys>.lua`, a
 * header listing KEYS, ARGV and return codes). Loaded once per connection with EVALSHA
 * under the hood (ioredis defineCommand).
 */
const SCRIPTS = ['intake-2', 'begin-attempt-3', 'finish-attempt-2', 'schedule-step-1', 'finish-notification-1'] as const;

export interface Scripts {
  intake(keys: [string, string], ...argv: (string | number)[]): Promise<[number, string, string?]>;
  beginAttempt(keys: [string, string, string], ...argv: (string | number)[]): Promise<(number | string)[]>;
  finishAttempt(keys: [string, string], ...argv: (string | number)[]): Promise<[number, string?, string?]>;
  scheduleStep(key: string, ...argv: (string | number)[]): Promise<number>;
  finishNotification(key: string, ...argv: (string | number)[]): Promise<number>;
}

export function loadScripts(redis: Redis): Scripts {
  const command = defineLuaCommands(redis, join(__dirname, 'lua'), 'notify', SCRIPTS);
  return {
    intake: (keys, ...argv) => command('intake-2')(...keys, ...argv) as Promise<[number, string, string?]>,
    beginAttempt: (keys, ...argv) => command('begin-attempt-3')(...keys, ...argv) as Promise<(number | string)[]>,
    finishAttempt: (keys, ...argv) => command('finish-attempt-2')(...keys, ...argv) as Promise<[number, string?, string?]>,
    scheduleStep: (key, ...argv) => command('schedule-step-1')(key, ...argv) as Promise<number>,
    finishNotification: (key, ...argv) => command('finish-notification-1')(key, ...argv) as Promise<number>,
  };
}
