import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PROFILES, type ProfileName } from './profiles';

export const USAGE = `usage: npm run bench:pipeline -- [--profile production|lean|webhooks] [--rates 1000,1736,2200] [--seconds 60]
  [--mode batch|single] [--single-rates 1736,3000,4000] [--references full-path,two-hop,intake|all|none]
  [--workers 2] [--api-instances 1] [--provider-latency-ms 20] [--transient-delay-ms 300] [--drain-seconds 60]
  [--settle-seconds 5] [--urgent-sample 2000] [--app-env KEY=VALUE,...] [--consent] [--overload 1.5] [--cpu-prof DIR] [--json]`;

const REFERENCES = ['full-path', 'two-hop', 'intake'] as const;
export type ReferenceName = (typeof REFERENCES)[number];

export interface BenchOptions {
  profile: ProfileName;
  rates: number[];
  singleRates: number[];
  seconds: number;
  settle: number;
  mode: 'batch' | 'single';
  references: Set<ReferenceName>;
  workers: number;
  apiInstances: number;
  latency: string;
  delay: string;
  extraEnv: Record<string, string>;
  /** NODE_OPTIONS and the profile directory when `--cpu-prof` is given. */
  profileEnv: Record<string, string>;
  drainSeconds: number;
  urgentSample: number;
  consent: boolean;
  /** `--overload F`: after the rates, hold F x the highest sustained one (the platform's push-back under overload); absent: none. */
  overload: number | undefined;
  json: boolean;
  help: boolean;
}

function numbers(text: string, name: string): number[] {
  const list = text.split(',').filter(Boolean).map(Number);
  if (list.some((r) => !Number.isFinite(r) || r <= 0 || r > 20_000)) throw new Error(`--${name} must be positive numbers up to 20000`);
  return list;
}

function appEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of text.split(',').filter(Boolean)) {
    const [key, ...rest] = pair.split('=');
    if (!key || !/^[A-Z][A-Z0-9_]*$/.test(key) || rest.length === 0) throw new Error(`--app-env: '${pair}' is not KEY=VALUE`);
    env[key] = rest.join('=');
  }
  return env;
}

function references(text: string): Set<ReferenceName> {
  if (text === 'all') return new Set(REFERENCES);
  if (text === 'none') return new Set();
  const list = text.split(',').filter(Boolean);
  const unknown = list.filter((r) => !(REFERENCES as readonly string[]).includes(r));
  if (unknown.length > 0) throw new Error(`--references: ${unknown.join(', ')}? (full-path, two-hop, intake, all or none)`);
  return new Set(list as ReferenceName[]);
}

/** The command line, checked. */
export function benchOptions(args = process.argv.slice(2)): BenchOptions {
  const { values } = parseArgs({
    args,
    options: {
      profile: { type: 'string', default: 'production' },
      rates: { type: 'string', default: '1000,1736,2200' },
      seconds: { type: 'string', default: '60' },
      'settle-seconds': { type: 'string' },
      workers: { type: 'string', default: '2' },
      'api-instances': { type: 'string', default: '1' },
      'transient-delay-ms': { type: 'string', default: '300' },
      'provider-latency-ms': { type: 'string', default: '20' },
      mode: { type: 'string', default: 'batch' },
      'single-rates': { type: 'string', default: '1736,3000,4000' },
      references: { type: 'string', default: 'full-path' },
      'drain-seconds': { type: 'string', default: '60' },
      'urgent-sample': { type: 'string', default: '2000' },
      'app-env': { type: 'string', default: '' },
      'cpu-prof': { type: 'string' },
      consent: { type: 'boolean', default: false },
      overload: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const profile = values.profile as ProfileName;
  if (!(profile in PROFILES)) throw new Error(`--profile must be one of ${Object.keys(PROFILES).join(', ')}`);
  const seconds = Number(values.seconds);
  if (!(seconds >= 5 && seconds <= 600)) throw new Error('--seconds must be in [5, 600]');
  const settle = values['settle-seconds'] === undefined ? Math.min(5, seconds / 4) : Number(values['settle-seconds']);
  if (!(settle >= 0 && settle < seconds)) throw new Error('--settle-seconds must be in [0, seconds)');
  const overload = values.overload === undefined ? undefined : Number(values.overload);
  if (overload !== undefined && !(overload > 1 && overload <= 5)) throw new Error('--overload must be a factor in (1, 5]');
  const apiInstances = Number(values['api-instances']);
  if (!(Number.isInteger(apiInstances) && apiInstances >= 1 && apiInstances <= 4)) throw new Error('--api-instances must be an integer in [1, 4]');
  return {
    profile,
    rates: numbers(values.rates, 'rates'),
    singleRates: numbers(values['single-rates'], 'single-rates'),
    seconds,
    settle,
    mode: values.mode === 'single' ? 'single' : 'batch',
    references: references(values.references),
    workers: Number(values.workers),
    apiInstances,
    latency: values['provider-latency-ms'],
    delay: values['transient-delay-ms'],
    extraEnv: appEnv(values['app-env']),
    // Node 20 refuses --cpu-prof in NODE_OPTIONS: a preloaded inspector hook writes the profiles
    // (api, workers and simulators alike).
    profileEnv: values['cpu-prof'] ? { NODE_OPTIONS: `--import ${join(__dirname, 'cpu-profile-hook.mjs')}`, BENCH_CPU_PROF_DIR: values['cpu-prof'] } : {},
    drainSeconds: Number(values['drain-seconds']),
    urgentSample: Number(values['urgent-sample']),
    consent: values.consent,
    overload,
    json: values.json,
    help: values.help,
  };
}
