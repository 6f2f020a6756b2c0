/**
 * `npm run lint` (after ESLint): fails when the files of the root tsconfig import each other in
 * a circle, type-only imports included. ESLint's import-x/no-cycle skips `import type` (such a
 * circle vanishes at run time), yet a type circle still ties two modules into one concept, as
 * the `RecordKind` circle between breaker-state.ts and breaker-scripts.ts once did: here
 * every import and re-export counts. Module names resolve as tsc resolves them (tsconfig
 * `paths`), so `@notify/*` imports are edges too.
 */
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..');

function importGraph(): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error('tsconfig.json could not be read');
  const files = new Set(config.fileNames);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = ts.createSourceFile(file, ts.sys.readFile(file) ?? '', ts.ScriptTarget.Latest);
    const specifiers = source.statements.flatMap((statement) =>
      (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
        ? [statement.moduleSpecifier.text]
        : [],
    );
    const targets = specifiers
      .map((specifier) => ts.resolveModuleName(specifier, file, config.options, ts.sys).resolvedModule?.resolvedFileName)
      .filter((target): target is string => target !== undefined && files.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Tarjan's strongly connected components of more than one file (a file importing itself counts too). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

const graph = importGraph();
const found = cycles(graph);
for (const component of found) {
  const members = new Set(component);
  process.stderr.write('import cycle:\n');
  for (const file of component) {
    for (const target of graph.get(file) ?? []) if (members.has(target)) process.stderr.write(`  ${relative(ROOT, file)} -> ${relative(ROOT, target)}\n`);
  }
}
process.stdout.write(`import cycles (type-only imports included): ${found.length} among ${graph.size} files\n`);
if (found.length > 0) process.exitCode = 1;
