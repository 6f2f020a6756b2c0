import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Cluster, Redis } from 'ioredis';

export type LuaCommand = (...args: (string | number)[]) => Promise<unknown>;

/** Shared Lua fragments: `--- @include "<name>"` in a script is replaced by `includes/<name>.lua`. */
export const LUA_INCLUDES_DIR = join(__dirname, 'lua', 'includes');

const INCLUDE_LINE = /^--- @include "([a-z0-9-]+)"\s*$/gm;
const sources = new Map<string, string>();

function readOnce(file: string): string {
  let text = sources.get(file);
  if (text === undefined) {
    text = readFileSync(file, 'utf8');
    sources.set(file, text);
  }
  return text;
}

/**
 * The text Redis runs for a script file: its source with every `--- @include "<name>"` line
 * replaced by the fragment (fragments may include fragments; each is pasted once per script,
 * at its first include, so a fragment defining a local function can be named twice).
 */
export function loadLuaSource(file: string, includesDir = LUA_INCLUDES_DIR): string {
  const seen = new Set<string>();
  const expand = (text: string, from: string, chain: readonly string[]): string =>
    text.replace(INCLUDE_LINE, (_line, name: string) => {
      if (chain.includes(name)) throw new Error(`Lua include cycle: ${[...chain, name].join(' -> ')} (in ${from})`);
      if (seen.has(name)) return `-- (${name} included above)`;
      seen.add(name);
      const fragment = readOnce(join(includesDir, `${name}.lua`));
      return `-- begin include ${name}\n${expand(fragment, name, [...chain, name]).trimEnd()}\n-- end include ${name}`;
    });
  return expand(readOnce(file), file, []);
}

/**
 * Key count of a script named BullMQ's way, `name-<numberOfKeys>.lua`; `name-n.lua` is variadic
 * (undefined: the caller passes the key count as the first argument).
 */
export function keyCount(name: string): number | undefined {
  if (name.endsWith('-n')) return undefined;
  const count = Number(name.split('-').at(-1));
  if (!Number.isInteger(count)) throw new Error(`Lua script '${name}' must be named name-<numberOfKeys>`);
  return count;
}

/**
 * Registers Lua scripts on a connection with ioredis `defineCommand` (EVALSHA, falling back to
 * EVAL after a SCRIPT FLUSH or a failover) and returns a lookup of callable commands. Includes
 * are resolved here, at load time (see README "Lua scripts"). `prefix` keeps command names of
 * different script sets apart on one connection. A Cluster defines them as a Redis does; each
 * call goes to its keys' slot (a script's keys share one).
 */
export function defineLuaCommands<Name extends string>(
  redis: Redis | Cluster,
  dir: string,
  prefix: string,
  names: readonly Name[],
): (name: Name) => LuaCommand {
  const commandName = (name: Name) => `${prefix}_${name.replace(/-(\d+|n)$/, '').replace(/-/g, '_')}`;
  for (const name of names) {
    if (!(commandName(name) in redis)) {
      const numberOfKeys = keyCount(name);
      redis.defineCommand(commandName(name), { ...(numberOfKeys === undefined ? {} : { numberOfKeys }), lua: loadLuaSource(join(dir, `${name}.lua`)) });
    }
  }
  // Bound once per name: a hot caller (begin/finish per step) looks a command up on every call.
  const bound = new Map<Name, LuaCommand>();
  return (name) => {
    let command = bound.get(name);
    if (command === undefined) {
      command = (redis as unknown as Record<string, LuaCommand>)[commandName(name)]!.bind(redis);
      bound.set(name, command);
    }
    return command;
  };
}
