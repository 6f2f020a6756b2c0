import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_CATALOG } from '@notify/core';
import { BUDGET_ERROR_CATALOG } from '@notify/budget-chain';

/**
 * The error catalogs against the README's error table, the way fastify checks its errors:
 * the number of codes is pinned (adding one is a decision that also updates this test and
 * the table), every code is documented, every documented code exists, and the table's HTTP
 * status and retry columns say what the code does.
 */
const ROOT = join(__dirname, '..', '..');
const README = join(ROOT, 'README.md');
const PINNED = { core: 22, budgetChain: 5 };

interface Row {
  code: string;
  httpStatus: number;
  retryable: string;
  line: number;
}

/** The rows of the table in the README's `## Errors` section: `| \`CODE\` | 400 | no | … |`. */
function readErrorTable(markdown: string): Row[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^## Errors\s*$/.test(line));
  if (start < 0) throw new Error('README has no "## Errors" section');
  const end = lines.findIndex((line, i) => i > start && /^## /.test(line));
  const rows: Row[] = [];
  lines.slice(start, end < 0 ? undefined : end).forEach((line, i) => {
    const cells = /^\|\s*`([A-Z_]+)`\s*\|\s*(\d{3})\s*\|\s*(\w+)\s*\|/.exec(line);
    if (cells) rows.push({ code: cells[1]!, httpStatus: Number(cells[2]), retryable: cells[3]!, line: start + i + 1 });
  });
  return rows;
}

const catalog = new Map<string, { httpStatus: number; retryable: boolean }>([...Object.entries(ERROR_CATALOG), ...Object.entries(BUDGET_ERROR_CATALOG)]);

/** Source files of what answers clients: the api and the packages (the simulators play third parties). */
function platformSources(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'dist') platformSources(path, out);
    else if (entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

describe('error catalog and the README', () => {
  const rows = readErrorTable(readFileSync(README, 'utf8'));

  it('pins the number of codes in each catalog, and no code is in both', () => {
    expect(Object.keys(ERROR_CATALOG)).toHaveLength(PINNED.core);
    expect(Object.keys(BUDGET_ERROR_CATALOG)).toHaveLength(PINNED.budgetChain);
    expect(catalog.size).toBe(PINNED.core + PINNED.budgetChain);
  });

  it('documents every code exactly once', () => {
    const documented = rows.map((r) => r.code);
    expect(new Set(documented).size).toBe(documented.length);
    expect([...catalog.keys()].filter((code) => !documented.includes(code))).toEqual([]);
  });

  it('documents no code that does not exist', () => {
    expect(rows.map((r) => r.code).filter((code) => !catalog.has(code))).toEqual([]);
  });

  it("states each code's HTTP status and retryability as the catalog does", () => {
    const wrong = rows.filter((r) => {
      const entry = catalog.get(r.code);
      return entry !== undefined && (entry.httpStatus !== r.httpStatus || (entry.retryable ? 'yes' : 'no') !== r.retryable);
    });
    expect(wrong).toEqual([]);
  });

  // An answer's body is `{ error: { code, ... } }`; a `code` tagged on an internal Error (mapped
  // to a catalog code before it leaves) is not an answer.
  it("answers clients only with codes from a catalog (no ad-hoc `error: { code: '...' }` body)", () => {
    const sources = ['apps/api/src', ...readdirSync(join(ROOT, 'packages')).map((p) => `packages/${p}/src`)]
      .filter((dir) => {
        try {
          return readdirSync(join(ROOT, dir)).length > 0;
        } catch {
          return false;
        }
      })
      .flatMap((dir) => platformSources(dir));
    expect(sources.length).toBeGreaterThan(20);
    const adHoc = sources.flatMap((path) =>
      [...readFileSync(join(ROOT, path), 'utf8').matchAll(/\berror: \{ code: '([A-Z][A-Z_]+)'/g)]
        .filter((m) => !catalog.has(m[1]!))
        .map((m) => `${m[1]} (${path})`),
    );
    expect(adHoc).toEqual([]);
  });

  it('reads the table it checks (a row that drifts is caught)', () => {
    const drifted = readErrorTable(
      '## Errors\n| code | HTTP | retry | meaning |\n|---|---|---|---|\n| `NOT_FOUND` | 410 | no | x |\n## Next\n| `INTERNAL` | 500 | yes | outside |',
    );
    expect(drifted).toEqual([{ code: 'NOT_FOUND', httpStatus: 410, retryable: 'no', line: 4 }]);
    expect(drifted[0]!.httpStatus).not.toBe(ERROR_CATALOG.NOT_FOUND.httpStatus);
  });
});
