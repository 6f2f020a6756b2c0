import { parseArgs } from 'node:util';
import { z } from 'zod';
import { formatConfigIssues } from '@notify/core';
import { usageError } from '@notify/platform-kit';
import { DEV_DEFAULTS, devOrigin } from '@notify/runtime';

const schema = z.object({
  api: z.string().url().default(devOrigin(DEV_DEFAULTS.apiPort)),
  key: z.string().min(1).default(DEV_DEFAULTS.apiKey),
  rate: z.coerce.number().positive().max(20_000).default(200),
  seconds: z.coerce.number().positive().max(3_600).default(10),
  'urgent-share': z.coerce.number().min(0).max(1).default(0.5),
  mode: z.enum(['batch', 'single']).default('batch'),
  'tick-ms': z.coerce.number().int().min(5).max(1_000).default(50),
  'worker-metrics': z.string().default(`${devOrigin(DEV_DEFAULTS.workerMetricsPort)}/metrics`),
  'sim-control': z.string().default(devOrigin(DEV_DEFAULTS.simControlPort)),
  'drain-seconds': z.coerce.number().min(0).max(3_600).default(120),
  seed: z.coerce.number().int().default(20260730),
  json: z.boolean().default(false),
});

export type LoadgenConfig = z.infer<typeof schema>;

export const USAGE = `usage: npm run loadgen -- [--api URL] [--key KEY] [--rate N/s] [--seconds S] [--urgent-share 0..1]
       [--mode batch|single] [--tick-ms MS] [--worker-metrics URL[,URL...]] [--sim-control URL|none]
       [--drain-seconds S] [--seed N] [--json]`;

/** Parses the CLI flags (strictly: an unknown flag is a usage error, exit 2, not a silent default). */
export function loadConfig(argv: string[]): LoadgenConfig {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: Object.fromEntries(Object.keys(schema.shape).map((k) => [k, { type: k === 'json' ? 'boolean' : 'string' } as const])),
    }));
  } catch (error) {
    throw usageError((error as Error).message.split('\n')[0] ?? 'invalid arguments');
  }
  const parsed = schema.safeParse(values);
  if (!parsed.success) {
    throw usageError(formatConfigIssues('loadgen', parsed.error, (path) => `--${path}`));
  }
  return parsed.data;
}
