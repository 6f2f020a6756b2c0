import { parseArgs } from 'node:util';
import { breakerTimeEnv, cascadeTimeEnv, DEFAULT_ENTRIES, usageError, type AppEntries } from '@notify/platform-kit';
import { parseCount } from '../numbers';

export type BreakerMode = 'on' | 'off';

export interface ScenarioOptions {
  notifications: number;
  ratePerSecond: number;
  breaker: BreakerMode[];
  workers: number;
  /** Every delay and breaker period is its production value x this (BI9's 30 s -> 3 s at 0.1). */
  timeScale: number;
  seed: number;
  urgentShare: number;
  json: boolean;
  entries: AppEntries;
  /** 1: push is the simulators' one provider. 2: push-a (killed) and push-b (a second simulators process) in a PROVIDERS_FILE. */
  pushProviders: 1 | 2;
}

export const SCENARIO_USAGE = `usage: npm run chaos:scenario -- push-down [options]

Starts a private platform (redis-server, simulators, api, workers) on 127.0.0.1, sends an
open-loop load, kills push from 25 % to 75 % of the load, and prints what happened next to the
seed model, with the breakers on and off.

options:
  --notifications N   how many (100..20000, default 1200)
  --rate R            notifications per second, open loop (10..500, default 100)
  --breaker MODE      on | off | both (default both)
  --workers K         worker processes, all roles each (1..4, default 2)
  --time-scale S      delays and breaker periods x S (0.01..1, default 0.1: BI9's 30 s -> 3 s)
  --seed N            traffic seed (default 20260730)
  --push-providers P  1 | 2 (default 1). 2: push has two providers, push-a and push-b (a second
                      simulators process), in a PROVIDERS_FILE; push-a is killed instead of push
  --json              one JSON document instead of the tables
  --worker-entry F, --api-entry F   the .ts entries to run (default apps/worker/src/main.ts, apps/api/src/main.ts)`;

/** Parses `push-down [...]`; a usage error (exit 2) on anything wrong, before anything starts. */
export function parseScenarioArgs(argv: readonly string[]): ScenarioOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        notifications: { type: 'string' },
        rate: { type: 'string' },
        breaker: { type: 'string' },
        workers: { type: 'string' },
        'time-scale': { type: 'string' },
        seed: { type: 'string' },
        json: { type: 'boolean' },
        'push-providers': { type: 'string' },
        'worker-entry': { type: 'string' },
        'api-entry': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw usageError((error as Error).message.split('\n').slice(0, 2).join(' '));
  }
  const { values, positionals } = parsed;
  if (values.help || positionals[0] === 'help') return 'help';
  if (positionals[0] !== 'push-down') {
    throw usageError(positionals[0] === undefined ? 'missing scenario name: push-down' : `unknown scenario '${positionals[0]}'; the one scenario is push-down`);
  }
  if (positionals.length > 1) throw usageError(`unexpected argument '${positionals[1]}'`);
  const breaker = values.breaker ?? 'both';
  if (!['on', 'off', 'both'].includes(breaker)) throw usageError(`--breaker must be on, off or both, got '${breaker}'`);
  const scale = values['time-scale'] ?? '0.1';
  if (!/^(\d+(\.\d+)?|\.\d+)$/.test(scale) || !(Number(scale) >= 0.01 && Number(scale) <= 1)) {
    throw usageError(`--time-scale must be a number in [0.01, 1], got '${scale}'`);
  }
  const pushProviders = values['push-providers'] ?? '1';
  if (pushProviders !== '1' && pushProviders !== '2') throw usageError(`--push-providers must be 1 or 2, got '${pushProviders}'`);
  return {
    notifications: values.notifications === undefined ? 1_200 : parseCount('notifications', values.notifications, 100, 20_000),
    ratePerSecond: values.rate === undefined ? 100 : parseCount('rate', values.rate, 10, 500),
    breaker: breaker === 'both' ? ['on', 'off'] : [breaker as BreakerMode],
    workers: values.workers === undefined ? 2 : parseCount('workers', values.workers, 1, 4),
    timeScale: Number(scale),
    seed: values.seed === undefined ? 20_260_730 : parseCount('seed', values.seed, 0, 2 ** 32 - 1),
    urgentShare: 0.5,
    json: values.json === true,
    entries: {
      ...DEFAULT_ENTRIES,
      ...(values['worker-entry'] !== undefined ? { worker: values['worker-entry'] } : {}),
      ...(values['api-entry'] !== undefined ? { api: values['api-entry'] } : {}),
    },
    pushProviders: pushProviders === '2' ? 2 : 1,
  };
}

/** The env that scales time for the api and workers, and turns the breakers on or off. */
export function scaledAppEnv(options: Pick<ScenarioOptions, 'timeScale'>, mode: BreakerMode): Record<string, string> {
  return { ...cascadeTimeEnv(options.timeScale), ...breakerTimeEnv(options.timeScale, mode === 'on') };
}
