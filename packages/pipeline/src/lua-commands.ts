import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';

export type LuaCommand = (...args: (string | number)[]) => Promise<unknown>;

const sources = new Map<string, string>();

/**
 * Registers Lua scripts on a connection with ioredis `defineCommand` (EVALSHA, falling back to
 * EVAL after a SCRIPT FLUSH or a failover) and returns a lookup of callable commands. Scripts
 * follow BullMQ's naming, `name-<numberOfKeys>.lua`, so the key count comes from the file name.
 * `prefix` keeps command names of different script sets apart on one connection.
 */
export function defineLuaCommands<Name extends string>(redis: Redis, dir: string, prefix: string, names: readonly Name[]): (name: Name) => LuaCommand {
  const commandName = (name: Name) => `${prefix}_${name.replace(/-\d+$/, '').replace(/-/g, '_')}`;
  for (const name of names) {
    const file = join(dir, `${name}.lua`);
    let lua = sources.get(file);
    if (lua === undefined) {
      lua = readFileSync(file, 'utf8');
      sources.set(file, lua);
    }
    if (!(commandName(name) in redis)) redis.defineCommand(commandName(name), { numberOfKeys: Number(name.split('-').at(-1)), lua });
  }
  return (name) => (redis as unknown as Record<string, LuaCommand>)[commandName(name)]!.bind(redis);
}
