import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROGRAMS, metaOf, mustSetVariables, renderConfigurationDocs, renderReadme } from '../../scripts/config-docs';

/**
 * docs/configuration.md is generated from the schemas (`npm run docs:config`): the committed page
 * must be what the generator prints now, every variable a program reads must be documented in
 * its sections with a description, and production must set at most 12 of them.
 */
const DOC = resolve(__dirname, '../../docs/configuration.md');
const README = resolve(__dirname, '../../README.md');
const committed = readFileSync(DOC, 'utf8');

/** `## <title>` → the variables of the table under it. */
function sections(markdown: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) {
      current = [];
      result.set(heading[1]!.trim(), current);
      continue;
    }
    const row = /^\| `([A-Z][A-Z0-9_]*)` \|/.exec(line);
    if (row && current) current.push(row[1]!);
  }
  return result;
}

const doc = sections(committed);

it('docs/configuration.md is what `npm run docs:config` prints from the schemas', () => {
  expect(committed).toBe(renderConfigurationDocs());
});

it("the README's production table is what `npm run docs:config` prints", () => {
  const readme = readFileSync(README, 'utf8');
  expect(readme).toBe(renderReadme(readme));
});

it('production must set at most 12 variables, each with what to set it to', () => {
  const mustSet = mustSetVariables();
  expect(mustSet.length).toBeGreaterThan(0);
  expect(mustSet.length).toBeLessThanOrEqual(12);
  expect(mustSet.map((v) => v.name)).toEqual(expect.arrayContaining(['NODE_ENV', 'API_KEYS', 'ADMIN_API_KEY']));
});

describe.each(Object.entries(PROGRAMS))('docs/configuration.md documents %s', (_program, { shape, sections: titles }) => {
  const documented = new Set(
    titles.flatMap((title) => {
      const found = doc.get(title);
      if (!found) throw new Error(`docs/configuration.md has no section "## ${title}"`);
      return found;
    }),
  );

  it('every variable of its schemas, each with a description', () => {
    expect(Object.keys(shape).filter((name) => !documented.has(name))).toEqual([]);
    expect(Object.entries(shape).flatMap(([name, type]) => (metaOf(type).description ? [] : [name]))).toEqual([]);
  });
});

it('lists each variable once per section, and every variable of a section is read by a program', () => {
  const read = new Set(Object.values(PROGRAMS).flatMap(({ shape }) => Object.keys(shape)));
  const problems = [...doc.entries()].flatMap(([title, rows]) => [
    ...rows.filter((v, i, all) => all.indexOf(v) !== i).map((v) => `${title}: ${v} twice`),
    ...(title === 'Former names' ? [] : rows.filter((v) => !read.has(v)).map((v) => `${title}: ${v} is read by nothing`)),
  ]);
  expect(problems).toEqual([]);
});
