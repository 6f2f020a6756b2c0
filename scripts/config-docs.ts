/**
 * docs/configuration.md and the README's must-set table, rendered from the config schemas
 * themselves: each field's `.describe()`/`.meta()` text, its default as the schema gives it,
 * and whether production must set it. `npm run docs:config` writes them;
 * test/ops/configuration-docs.test.ts fails when the committed files differ.
 */
import type { z } from 'zod';
import { API_RENAMES, apiEnvShape, apiOwnEnvShape } from '../apps/api/src/config';
import { trackingEnvSchema } from '../apps/api/src/tracking/config';
import { chaosEnvSchema } from '../apps/chaos/src/config';
import { simulatorsEnvShape, simulatorsOwnEnvShape } from '../apps/simulators/src/config';
import { trackingStoresEnvSchema } from '../apps/simulators/src/tracking/config';
import { WORKER_RENAMES, workerEnvShape, workerOwnEnvShape } from '../apps/worker/src/config';
import { breakerEnvShape } from '@notify/pipeline';
import { consentEnvShape, historyEnvShape, httpServerLimitsEnvShape, providersEnvShape, sharedEnvShape, type EnvRenames } from '@notify/runtime';
import { webhookEnvShape } from '@notify/webhooks';
import { startEnvShape, startOwnEnvShape } from './start-env';

export type Shape = Record<string, z.ZodType>;

/** What a field's metadata may say besides its description. */
interface FieldMeta {
  description?: string;
  /** The default in words, where the schema computes it (e.g. "on in production"). */
  defaultText?: string;
  /** Set: production must set this variable; the text says to what. */
  mustSet?: string;
}

interface Section {
  title: string;
  intro?: string;
  shape: Shape;
}

export const SECTIONS: Section[] = [
  {
    title: 'Shared by the api and the worker',
    shape: { ...sharedEnvShape, ...historyEnvShape, PROVIDERS_FILE: providersEnvShape.PROVIDERS_FILE, ...webhookEnvShape },
  },
  { title: 'Circuit breakers (api and worker)', shape: breakerEnvShape },
  {
    title: 'Categories, opt-outs and unsubscribe links (api and worker)',
    intro: 'See [docs/preferences.md](preferences.md). The worker signs the links its e-mails carry; the api verifies them.',
    shape: consentEnvShape,
  },
  {
    title: 'HTTP servers (api, worker, simulators)',
    intro:
      "The same four limits on every server of the platform (the api's public and metrics listeners,\neach worker's metrics listener, the simulated providers, their control plane and the tracking\nstores), applied by `createLimitedServer` in `@notify/runtime`.",
    shape: httpServerLimitsEnvShape,
  },
  { title: 'api', shape: apiOwnEnvShape },
  { title: 'api: tracking query', shape: trackingEnvSchema.shape },
  { title: 'worker', shape: workerOwnEnvShape },
  { title: 'simulators', shape: simulatorsOwnEnvShape },
  { title: 'simulators: tracking stores', shape: trackingStoresEnvSchema.shape },
  { title: 'chaos CLI', shape: chaosEnvSchema.shape },
  {
    title: 'npm start',
    intro:
      "The development supervisor (`npm start`, `scripts/run-platform.ts`) reads the apps' own variables\n(`REDIS_URL`, `DATABASE_URL`, `API_HOST`, `API_PORT`, `API_METRICS_PORT`, `WORKER_METRICS_PORT`,\nas above, with `HISTORY_ENABLED` on unless told otherwise) and one of its own.",
    shape: startOwnEnvShape,
  },
];

/** Each program: every variable it reads (its whole schemas) and the sections documenting them. */
export const PROGRAMS: Record<string, { shape: Shape; sections: string[] }> = {
  api: {
    shape: { ...apiEnvShape, ...trackingEnvSchema.shape },
    sections: [
      'Shared by the api and the worker',
      'Circuit breakers (api and worker)',
      'Categories, opt-outs and unsubscribe links (api and worker)',
      'HTTP servers (api, worker, simulators)',
      'api',
      'api: tracking query',
    ],
  },
  worker: {
    shape: workerEnvShape,
    sections: [
      'Shared by the api and the worker',
      'Circuit breakers (api and worker)',
      'Categories, opt-outs and unsubscribe links (api and worker)',
      'HTTP servers (api, worker, simulators)',
      'worker',
    ],
  },
  simulators: {
    shape: { ...simulatorsEnvShape, ...trackingStoresEnvSchema.shape },
    sections: ['HTTP servers (api, worker, simulators)', 'simulators', 'simulators: tracking stores'],
  },
  chaos: { shape: chaosEnvSchema.shape, sections: ['chaos CLI'] },
  'npm start': { shape: startEnvShape, sections: ['Shared by the api and the worker', 'api', 'worker', 'npm start'] },
};

const RENAMES: Record<string, EnvRenames> = { api: API_RENAMES, worker: WORKER_RENAMES };

export const metaOf = (type: z.ZodType): FieldMeta => type.meta() ?? {};

/** The default cell: the words the field gives, or what the schema yields for an unset variable. */
export function defaultCell(type: z.ZodType): string {
  const meta = metaOf(type);
  if (meta.defaultText !== undefined) return meta.defaultText;
  const parsed = type.safeParse(undefined);
  if (!parsed.success) return 'required';
  const value: unknown = parsed.data;
  if (value === undefined) return 'none';
  const scalar = (v: unknown) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v));
  if (Array.isArray(value)) return `\`${value.map(scalar).join(',')}\``;
  if (typeof value === 'object' && value !== null) {
    return `\`${Object.entries(value)
      .map(([k, v]) => `${k}:${scalar(v)}`)
      .join(',')}\``;
  }
  return `\`${scalar(value)}\``;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** Every variable production must set, once each, in the order the sections list them. */
export function mustSetVariables(): { name: string; text: string }[] {
  const seen = new Map<string, string>();
  for (const { shape } of SECTIONS) {
    for (const [name, type] of Object.entries(shape)) {
      const text = metaOf(type).mustSet;
      if (text !== undefined && !seen.has(name)) seen.set(name, text);
    }
  }
  return [...seen].map(([name, text]) => ({ name, text }));
}

/** The must-set table; `linkBase` is the path from the page to the repository root. */
export function renderMustSetTable(linkBase: '' | '../'): string {
  const rows = mustSetVariables().map(({ name, text }) => `| \`${name}\` | ${cell(linkBase === '' ? text : text.replace(/\]\(docs\//g, ']('))} |`);
  return ['| variable | set it to |', '|---|---|', ...rows].join('\n');
}

function renderSection({ title, intro, shape }: Section): string {
  const rows = Object.entries(shape).map(([name, type]) => `| \`${name}\` | ${cell(defaultCell(type))} | ${cell(metaOf(type).description ?? '')} |`);
  return [`## ${title}`, '', ...(intro ? [intro, ''] : []), '| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

function renderRenames(): string {
  const rows = Object.entries(RENAMES).flatMap(([program, { renamed, replaced }]) => [
    ...Object.entries(renamed).map(([from, to]) => `| ${program} | \`${from}\` | \`${to}\`: the old name is still read, with a warning at start |`),
    ...Object.entries(replaced).map(([from, instead]) => `| ${program} | \`${from}\` | refused at start: ${cell(instead)} |`),
  ]);
  return [
    '## Former names',
    '',
    'Read for one release more, or refused with a message naming the replacement: never silently ignored.',
    '',
    '| program | former name | now |',
    '|---|---|---|',
    ...rows,
  ].join('\n');
}

/** Per program: how many variables it reads, and how many of them production must set. */
export function variableCounts(): Record<string, { total: number; mustSet: number }> {
  return Object.fromEntries(
    Object.entries(PROGRAMS).map(([program, { shape }]) => {
      const types = Object.values(shape);
      return [program, { total: types.length, mustSet: types.filter((t) => metaOf(t).mustSet !== undefined).length }];
    }),
  );
}

function renderCounts(): string {
  const all = new Set(Object.values(PROGRAMS).flatMap(({ shape }) => Object.keys(shape)));
  const per = Object.entries(variableCounts()).map(([program, { total, mustSet }]) => `${program} ${total} (${mustSet} to set in production)`);
  return `${all.size} variables in all (${mustSetVariables().length} to set in production): ${per.join(', ')}.`;
}

export function renderConfigurationDocs(): string {
  const head = [
    '# Configuration',
    '',
    '<!-- Generated by `npm run docs:config` from the config schemas: edit the schemas, not this page. -->',
    '',
    'Every service is configured by environment variables only, validated once at start-up by the',
    'zod schema in its `src/config.ts` (`loadConfig(env)`). A bad value stops the process with one',
    'readable message listing every bad variable (`invalid api configuration:` then one',
    '`  NAME: reason` line each); no message ever prints a key. Development defaults (ports, keys)',
    'are defined once, in `packages/runtime/src/dev-defaults.ts`. Every default not in the table',
    'below is the one for production.',
    '',
    renderCounts(),
    'The load generator (`npm run loadgen`) takes command-line flags, not variables (`--help`).',
    '',
    '## Production: what to set',
    '',
    renderMustSetTable('../'),
  ];
  return `${[...head, '', ...SECTIONS.flatMap((s) => [renderSection(s), '']), renderRenames(), '', 'The chaos scenario also reads `SCENARIO_REDIS_SERVER` (the `redis-server` binary it starts;', 'default `redis-server`) and passes only `PATH`, `HOME`, `TMPDIR` and `LANG` to its children.'].join('\n')}\n`;
}

export const README_MARKERS = { start: '<!-- production-variables:start -->', end: '<!-- production-variables:end -->' } as const;

/** `readme` with the must-set table between its markers replaced by the current one. */
export function renderReadme(readme: string): string {
  const start = readme.indexOf(README_MARKERS.start);
  const end = readme.indexOf(README_MARKERS.end);
  if (start < 0 || end < start) throw new Error(`README.md has no ${README_MARKERS.start} … ${README_MARKERS.end} block`);
  return `${readme.slice(0, start + README_MARKERS.start.length)}\n${renderMustSetTable('')}\n${readme.slice(end)}`;
}
