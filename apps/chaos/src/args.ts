import { parseArgs } from 'node:util';
import { CHANNELS, isChannel, type Channel } from '@notify/core';
import { usageError } from '@notify/platform-kit';
import { parseMs, parseRate } from './numbers';

export type ChaosCommand =
  | { kind: 'kill-channel'; channel: Channel }
  | { kind: 'kill-provider'; provider: string }
  | { kind: 'restore-provider'; provider: string }
  | { kind: 'break-channel'; channel: Channel; rate: number }
  | { kind: 'slow-channel'; channel: Channel; ms: number }
  | { kind: 'slow-store'; store: Store }
  | { kind: 'restore'; target: Channel | Store | 'all' }
  | { kind: 'kill-worker'; role: Channel | 'all' }
  | { kind: 'redis-pause'; ms: number }
  | { kind: 'status'; json: boolean }
  | { kind: 'help' };

/** The tracking stores the CLI can slow down (AY10: the tariff store). */
export const STORES = ['tariff'] as const;
export type Store = (typeof STORES)[number];
const isStore = (value: string): value is Store => (STORES as readonly string[]).includes(value);

export interface ChaosArgs {
  command: ChaosCommand;
  /** Flags that override the env (SIM_CONTROL_URL, TRACKING_STORES_BASE_URL, REDIS_URL). */
  overrides: { SIM_CONTROL_URL?: string; TRACKING_STORES_BASE_URL?: string; REDIS_URL?: string };
}

/** The simulators cap slowMs at 10 minutes; CLIENT PAUSE is capped at 1 minute (it cannot be undone early). */
export const MAX_SLOW_MS = 600_000;
export const MAX_PAUSE_MS = 60_000;

export const USAGE = `usage: npm run chaos -- <command> [options]

commands:
  kill-channel <push|sms|email>          the provider answers nothing (its port is closed: connection refused)
  break-channel <channel> --rate R        the provider fails a share R in (0, 1] of calls with a transient 503
  slow-channel <channel> --ms N           every call to the provider takes N ms more (1..${MAX_SLOW_MS})
  kill-provider <name>                   one provider of a channel answers nothing (PROVIDERS_FILE name, or push|sms|email for a default simulator)
  restore-provider <name>                that provider back to its configured behaviour
  slow-store tariff                       AY10: the tariff store answers tens of times slower than its 6 ms median
  restore <channel|tariff|all>            back to the configured behaviour (all: every channel and the tariff store)
  kill-worker [--role push|sms|email|all] SIGKILL one registered worker process on this host (running that role)
  redis-pause --ms N                      CLIENT PAUSE the platform's Redis for N ms (1..${MAX_PAUSE_MS}); it resumes by itself
  status [--json]                         channels' behaviour, breaker states, registered workers
  help

options (override the env):
  --control-url URL   simulators' control API (env SIM_CONTROL_URL, default http://127.0.0.1:4100)
  --stores-url URL    tracking stores (env TRACKING_STORES_BASE_URL, default http://127.0.0.1:4600)
  --redis-url URL     the platform's Redis (env REDIS_URL, default redis://127.0.0.1:6379)

exit codes: 0 done, 1 failed (a dependency did not answer; anything half-applied was restored), 2 bad input, 130 interrupted`;

const OPTIONS = {
  rate: { type: 'string' },
  ms: { type: 'string' },
  role: { type: 'string' },
  json: { type: 'boolean' },
  'control-url': { type: 'string' },
  'stores-url': { type: 'string' },
  'redis-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Which command-specific options each command takes (the URL flags go with every command). */
const ALLOWED: Record<ChaosCommand['kind'], readonly string[]> = {
  'kill-channel': [],
  'kill-provider': [],
  'restore-provider': [],
  'break-channel': ['rate'],
  'slow-channel': ['ms'],
  'slow-store': [],
  restore: [],
  'kill-worker': ['role'],
  'redis-pause': ['ms'],
  status: ['json'],
  help: [],
};
const POSITIONALS: Record<ChaosCommand['kind'], number> = {
  'kill-channel': 1,
  'kill-provider': 1,
  'restore-provider': 1,
  'break-channel': 1,
  'slow-channel': 1,
  'slow-store': 1,
  restore: 1,
  'kill-worker': 0,
  'redis-pause': 0,
  status: 0,
  help: 0,
};

function isCommand(name: string): name is ChaosCommand['kind'] {
  return Object.hasOwn(ALLOWED, name);
}

function channelArg(command: string, raw: string | undefined, allowAll = false): Channel | 'all' {
  const expected = `${CHANNELS.join('|')}${allowAll ? `|${STORES.join('|')}|all` : ''}`;
  if (raw === undefined) throw usageError(`${command} needs a channel: ${command} <${expected}>`);
  if (isChannel(raw) || (allowAll && raw === 'all')) return raw;
  throw usageError(`unknown channel '${raw}'; expected one of ${expected}`);
}

/** A provider name as PROVIDERS_FILE spells them (lowercase letters, digits, dashes). */
function providerArg(command: string, raw: string | undefined): string {
  if (raw === undefined) throw usageError(`${command} needs a provider name: ${command} <name>`);
  if (!/^[a-z][a-z0-9-]{0,39}$/.test(raw)) throw usageError(`'${raw}' is not a provider name (lowercase letters, digits and dashes)`);
  return raw;
}

/** Parses the CLI's argv (after `chaos`); throws a USAGE CliError on anything wrong, before any I/O. */
export function parseChaosArgs(argv: readonly string[]): ChaosArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError((error as Error).message.split('\n').slice(0, 2).join(' '));
  }
  const { values, positionals } = parsed;
  const [name, ...rest] = positionals;
  const overrides = {
    ...(values['control-url'] !== undefined ? { SIM_CONTROL_URL: values['control-url'] } : {}),
    ...(values['stores-url'] !== undefined ? { TRACKING_STORES_BASE_URL: values['stores-url'] } : {}),
    ...(values['redis-url'] !== undefined ? { REDIS_URL: values['redis-url'] } : {}),
  };
  if (values.help || name === 'help') return { command: { kind: 'help' }, overrides };
  if (name === undefined)
    throw usageError('missing command (kill-channel, kill-provider, restore-provider, break-channel, slow-channel, restore, kill-worker, redis-pause, status)');
  if (!isCommand(name)) throw usageError(`unknown command '${name}'; run 'npm run chaos -- help'`);

  const given = Object.keys(values).filter((k) => !['control-url', 'stores-url', 'redis-url'].includes(k));
  const extra = given.filter((k) => !ALLOWED[name].includes(k));
  if (extra.length > 0) throw usageError(`${name} takes no --${extra.join(', --')}`);
  if (rest.length > POSITIONALS[name]) throw usageError(`${name}: unexpected argument '${rest[POSITIONALS[name]]}'`);

  const command = ((): ChaosCommand => {
    switch (name) {
      case 'kill-channel':
        return { kind: name, channel: channelArg(name, rest[0]) as Channel };
      case 'kill-provider':
      case 'restore-provider':
        return { kind: name, provider: providerArg(name, rest[0]) };
      case 'break-channel':
        return { kind: name, channel: channelArg(name, rest[0]) as Channel, rate: parseRate('rate', values.rate) };
      case 'slow-channel':
        return { kind: name, channel: channelArg(name, rest[0]) as Channel, ms: parseMs('ms', values.ms, 1, MAX_SLOW_MS) };
      case 'slow-store': {
        if (rest[0] === undefined || !isStore(rest[0]))
          throw usageError(`slow-store needs a store: slow-store <${STORES.join('|')}>${rest[0] ? `, got '${rest[0]}'` : ''}`);
        return { kind: name, store: rest[0] };
      }
      case 'restore':
        return { kind: name, target: rest[0] !== undefined && isStore(rest[0]) ? rest[0] : channelArg(name, rest[0], true) };
      case 'kill-worker': {
        const role = values.role ?? 'all';
        if (role !== 'all' && !isChannel(role)) throw usageError(`unknown role '${role}'; expected one of ${CHANNELS.join('|')}|all`);
        return { kind: name, role };
      }
      case 'redis-pause':
        return { kind: name, ms: parseMs('ms', values.ms, 1, MAX_PAUSE_MS) };
      case 'status':
        return { kind: name, json: values.json === true };
      default:
        return { kind: 'help' };
    }
  })();
  return { command, overrides };
}
