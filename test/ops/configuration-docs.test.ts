import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { apiEnvShape } from '../../apps/api/src/config';
import { trackingEnvSchema } from '../../apps/api/src/tracking/config';
import { chaosEnvSchema } from '../../apps/chaos/src/config';
import { simulatorsEnvShape } from '../../apps/simulators/src/config';
import { trackingStoresEnvSchema } from '../../apps/simulators/src/tracking/config';
import { workerEnvShape } from '../../apps/worker/src/config';

/**
 * docs/configuration.md is the documentation of every environment variable, checked against the
 * schemas themselves (the shapes each config module exports): both directions, per app, and the
 * documented default against the schema's.
 */
const DOC = resolve(__dirname, '../../docs/configuration.md');

type Shape = Record<string, z.ZodType>;

/** Each app: the doc sections that document it, and the schema shapes it parses. */
const APPS: Record<string, { sections: string[]; shapes: Shape[] }> = {
  api: {
    sections: ['Shared by the api and the worker', 'Circuit breakers (api and worker)', 'HTTP servers (api, worker, simulators)', 'api', 'api: tracking query'],
    shapes: [apiEnvShape, trackingEnvSchema.shape],
  },
  worker: {
    sections: ['Shared by the api and the worker', 'Circuit breakers (api and worker)', 'HTTP servers (api, worker, simulators)', 'worker'],
    shapes: [workerEnvShape],
  },
  simulators: {
    sections: ['HTTP servers (api, worker, simulators)', 'simulators', 'simulators: tracking stores'],
    shapes: [simulatorsEnvShape, trackingStoresEnvSchema.shape],
  },
  chaos: { sections: ['chaos CLI'], shapes: [chaosEnvSchema.shape] },
};

interface Row {
  variable: string;
  defaultCell: string;
}

/** `## <title>` → the rows of the table under it (first column a backticked variable). */
function sections(markdown: string): Map<string, Row[]> {
  const result = new Map<string, Row[]>();
  let current: Row[] | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) {
      current = [];
      result.set(heading[1]!.trim(), current);
      continue;
    }
    const row = /^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/.exec(line);
    if (row && current) current.push({ variable: row[1]!, defaultCell: row[2]!.trim() });
  }
  return result;
}

const doc = sections(readFileSync(DOC, 'utf8'));

/** The default a schema gives an unset variable, as the doc would print it (undefined: none). */
function schemaDefault(type: z.ZodType): string | undefined {
  const parsed = type.safeParse(undefined);
  if (!parsed.success || parsed.data === undefined) return undefined;
  const value: unknown = parsed.data;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined; // tables and lists: the doc writes them the way they are typed
}

describe.each(Object.entries(APPS))('docs/configuration.md documents %s', (_app, { sections: titles, shapes }) => {
  const inSchema = new Map<string, z.ZodType>(shapes.flatMap((shape) => Object.entries(shape)));
  const rows = titles.flatMap((title) => {
    const found = doc.get(title);
    if (!found) throw new Error(`docs/configuration.md has no section "## ${title}"`);
    return found;
  });
  const documented = new Set(rows.map((r) => r.variable));

  it('every variable of its schemas', () => {
    expect([...inSchema.keys()].filter((name) => !documented.has(name))).toEqual([]);
  });

  it('no variable its schemas do not have', () => {
    expect([...documented].filter((name) => !inSchema.has(name))).toEqual([]);
  });

  it('each scalar default as the schema has it', () => {
    const wrong = rows.flatMap((row) => {
      const type = inSchema.get(row.variable);
      const expected = type && schemaDefault(type);
      if (expected === undefined || row.defaultCell.includes(`\`${expected}\``)) return [];
      // Byte sizes are written the way they are configured (2mb), parsed to bytes.
      if (row.variable === 'BODY_LIMIT' && row.defaultCell === `\`${Number(expected) / (1024 * 1024)}mb\``) return [];
      return [`${row.variable}: doc says ${row.defaultCell}, schema ${expected}`];
    });
    expect(wrong).toEqual([]);
  });
});

it('lists each variable once per section', () => {
  const repeated = [...doc.entries()].flatMap(([title, rows]) =>
    rows
      .map((r) => r.variable)
      .filter((v, i, all) => all.indexOf(v) !== i)
      .map((v) => `${title}: ${v}`),
  );
  expect(repeated).toEqual([]);
});
