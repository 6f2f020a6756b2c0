import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * The README as a manual: small, with a table of contents and a map of the
 * repository; every relative link resolves; every `npm run` it names exists; every code from
 * the product brief that the code or docs use is defined in the glossary.
 */
const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const README = 'README.md';
const OWNED_DOCS = [
  README,
  'docs/benchmarks.md',
  'docs/glossary.md',
  'apps/api/README.md',
  'apps/worker/README.md',
  'apps/simulators/README.md',
  'apps/loadgen/README.md',
  'packages/core/README.md',
  'packages/metrics/README.md',
  'packages/runtime/README.md',
  'packages/models/README.md',
];

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to dashes. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(markdown: string): Set<string> {
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) out.add(slug(heading[1]!));
  }
  return out;
}

/** Markdown links outside code blocks: [text](target). */
function links(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
}

/** Every relative link of a markdown file that points nowhere (file or heading). */
function brokenLinks(path: string): string[] {
  const broken: string[] = [];
  for (const target of links(read(path))) {
    if (/^[a-z]+:/.test(target)) continue; // http(s), mailto
    const [file, anchor] = target.split('#') as [string, string | undefined];
    const resolved = file === '' ? path : relative(ROOT, join(ROOT, dirname(path), file));
    if (!existsSync(join(ROOT, resolved))) {
      broken.push(`${path}: ${target} (no such file)`);
      continue;
    }
    if (anchor && resolved.endsWith('.md') && !anchors(read(resolved)).has(anchor)) broken.push(`${path}: ${target} (no such heading)`);
  }
  return broken;
}

function filesUnder(dir: string, exts: RegExp, out: string[] = []): string[] {
  for (const name of readdirSync(join(ROOT, dir))) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    const stat = lstatSync(join(ROOT, path));
    if (stat.isSymbolicLink()) continue;
    if (stat.isDirectory()) filesUnder(path, exts, out);
    else if (exts.test(name)) out.push(path);
  }
  return out;
}

describe('the README as a manual', () => {
  const readme = read(README);

  it('stays under 35 KB', () => {
    expect(Buffer.byteLength(readme)).toBeLessThan(35 * 1024);
  });

  it('has a table of contents linking every section', () => {
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]!).filter((s) => s !== 'Contents');
    const contents = /^## Contents\n([\s\S]*?)\n## /m.exec(readme)?.[1] ?? '';
    expect(sections.length).toBeGreaterThanOrEqual(8);
    expect(sections.filter((s) => !contents.includes(`](#${slug(s)})`))).toEqual([]);
  });

  it('maps every app and package in one line each', () => {
    const map = /^## Repository map\n([\s\S]*?)\n## /m.exec(readme)?.[1] ?? '';
    const workspaces = ['apps', 'packages'].flatMap((dir) =>
      readdirSync(join(ROOT, dir))
        .filter((name) => existsSync(join(ROOT, dir, name, 'package.json')))
        .map((name) => `${dir}/${name}`),
    );
    expect(workspaces.length).toBeGreaterThanOrEqual(10);
    expect(workspaces.filter((ws) => !map.includes(`| \`${ws}\` |`))).toEqual([]);
  });

  it('links only to files and headings that exist', () => {
    expect(OWNED_DOCS.flatMap(brokenLinks)).toEqual([]);
    // The check can fail: a link to a missing heading is reported.
    expect(anchors('## Quick start\n```\n# not a heading\n```').has('not-a-heading')).toBe(false);
  });

  it('names only npm scripts that exist', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const named = OWNED_DOCS.flatMap((path) => [...read(path).matchAll(/npm run ([a-z:-]+)/g)].map((m) => m[1]!));
    expect(named.length).toBeGreaterThan(5);
    expect([...new Set(named)].filter((name) => !scripts.includes(name))).toEqual([]);
  });

  it('defines in the glossary every brief code and invariant number the code and docs use', () => {
    const glossary = read('docs/glossary.md');
    const defined = new Set([...glossary.matchAll(/\*\*((?:BI|AY|K|U)\d{1,2})\*\*/g)].map((m) => m[1]!));
    const invariants = new Set([...glossary.matchAll(/^(\d+)\. /gm)].map((m) => Number(m[1])));
    const sources = ['apps', 'packages', 'bench', 'scripts', 'test', 'infra', 'docs']
      .flatMap((dir) => filesUnder(dir, /\.(ts|md|lua|ya?ml|sh)$/))
      .concat([README]);
    const missing = new Set<string>();
    for (const path of sources) {
      const text = read(path);
      for (const [code] of text.matchAll(/\b(?:BI|AY|K0|U)\d{1,2}\b/g)) if (!defined.has(code)) missing.add(`${code} (${path})`);
      for (const m of text.matchAll(/\binvariants? (\d+)\b/gi)) if (!invariants.has(Number(m[1]))) missing.add(`invariant ${m[1]} (${path})`);
    }
    expect([...missing]).toEqual([]);
    expect(defined.size).toBeGreaterThanOrEqual(12);
  });
});
