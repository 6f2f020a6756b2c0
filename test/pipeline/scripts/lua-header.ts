import { readFileSync } from 'node:fs';

/**
 * The return codes a script's header lists: the lines after `Returns` shaped
 * `<spaces><number> <name>` up to the header's end (see packages/pipeline/README.md).
 */
export function headerReturnCodes(file: string): Record<string, number> {
  const source = readFileSync(file, 'utf8');
  const header = /^--\[\[([\s\S]*?)\]\]/.exec(source)?.[1];
  if (header === undefined) throw new Error(`${file} has no --[[ ]] header`);
  const lines = header.split('\n');
  const start = lines.findIndex((l) => /^\s*Returns\b/.test(l));
  if (start < 0) throw new Error(`${file}'s header lists no Returns`);
  const codes: Record<string, number> = {};
  for (const line of lines.slice(start + 1)) {
    const match = /^\s{2,}(\d+)\s+([a-z][a-zA-Z]*)\b/.exec(line);
    if (match) codes[match[2] as string] = Number(match[1]);
  }
  return codes;
}
