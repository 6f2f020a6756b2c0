/**
 * Sums a V8 .cpuprofile (as `bench:pipeline --cpu-prof DIR` writes one per api, worker and
 * simulators process) by function and by package: self time, top N of each.
 *
 *   npx tsx bench/pipeline/profile-top.ts <file.cpuprofile>... [--top 30] [--per 31000] [--window fnName] [--callers fnName]
 *
 * Several files (the two workers) are summed as one. `--per N` also prints µs per unit (N =
 * deliveries in the profiled run), so a frame reads as CPU per delivery. `--window fn` counts
 * only samples between the first and the last whose stack holds `fn` (start-up and the idle
 * tail left out); by default every sample counts and idle is reported apart. `--callers fn` also
 * prints whose calls a native frame's self time came from (e.g. writeUtf8String: a socket write
 * of a string, by ioredis or undici): the stack up to the first 3 frames with a source file.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({
  options: { top: { type: 'string', default: '30' }, per: { type: 'string' }, window: { type: 'string' }, callers: { type: 'string' } },
  allowPositionals: true,
  strict: true,
});

/** Where a frame's code lives: an npm package, node's internals, the repo's own package, or the VM. */
export function packageOf(frame: CallFrame): string {
  const url = frame.url;
  if (url === '') return `(vm) ${frame.functionName || '(anonymous)'}`;
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 'node_modules/'.length).split('/');
    // Workspace packages are linked under node_modules/@notify: name them by their source folder below.
    if (parts[0] !== '@notify') return `npm:${parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  const repo = /\/(apps|packages|bench)\/([^/]+)\//.exec(url);
  return repo ? `${repo[1]}/${repo[2]}` : url;
}

function frameKey(f: CallFrame): string {
  if (f.url === '') return f.functionName || '(anonymous)';
  const path = /\/(node_modules\/.*|apps\/.*|packages\/.*|bench\/.*)$/.exec(f.url)?.[1] ?? f.url;
  return `${f.functionName || '(anonymous)'} ${path.replace(/^node_modules\//, '')}:${f.lineNumber + 1}`;
}

interface Totals {
  self: Map<string, number>;
  byPackage: Map<string, number>;
  callers: Map<string, number>;
  busy: number;
  idle: number;
  gc: number;
}

function add(map: Map<string, number>, key: string, us: number): void {
  map.set(key, (map.get(key) ?? 0) + us);
}

function sum(file: string, totals: Totals, windowFn: string | undefined): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let from = 0;
  let to = profile.samples.length - 1;
  if (windowFn !== undefined) {
    const holds = (id: number): boolean => {
      for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) if (byId.get(cur)?.callFrame.functionName === windowFn) return true;
      return false;
    };
    const marks = profile.samples.map(holds);
    if (marks.includes(true)) {
      from = marks.indexOf(true);
      to = marks.lastIndexOf(true);
    }
  }
  for (let i = from; i <= to; i += 1) {
    // timeDeltas[i + 1] is the time sample i stood for (the delta before the next sample).
    const us = profile.timeDeltas[i + 1] ?? 0;
    const node = byId.get(profile.samples[i] as number) as ProfileNode;
    const name = node.callFrame.functionName;
    if (name === '(idle)' || name === '(program)') {
      // (program) is native time outside JS that V8 cannot attribute: mostly the event loop's epoll.
      add(totals.self, name, us);
      if (name === '(idle)') {
        totals.idle += us;
        continue;
      }
    } else add(totals.self, frameKey(node.callFrame), us);
    if (values.callers !== undefined && name === values.callers) {
      const path: string[] = [];
      for (let cur = parent.get(node.id); cur !== undefined && path.length < 3; cur = parent.get(cur)) {
        const f = (byId.get(cur) as ProfileNode).callFrame;
        if (f.url !== '' && !f.url.startsWith('node:')) path.push(frameKey(f));
      }
      add(totals.callers, path.join(' < '), us);
    }
    if (name === '(garbage collector)') totals.gc += us;
    add(totals.byPackage, packageOf(node.callFrame), us);
    totals.busy += us;
  }
}

function main(): void {
  if (positionals.length === 0) throw new Error('usage: profile-top.ts <file.cpuprofile>... [--top 30] [--per N] [--window fnName]');
  const top = Number(values.top);
  const per = values.per === undefined ? undefined : Number(values.per);
  const totals: Totals = { self: new Map(), byPackage: new Map(), callers: new Map(), busy: 0, idle: 0, gc: 0 };
  for (const file of positionals) sum(file, totals, values.window);
  totals.self.delete('(idle)');
  const perText = (us: number) => (per ? `${(us / per).toFixed(1).padStart(7)} µs/unit` : '');
  console.log(
    `${positionals.join(' ')}: busy ${(totals.busy / 1e6).toFixed(2)} s, idle ${(totals.idle / 1e6).toFixed(2)} s, GC ${(totals.gc / 1e6).toFixed(2)} s` +
      (per ? `; busy ${(totals.busy / per).toFixed(1)} µs per unit (${per} units)` : ''),
  );
  const print = (title: string, map: Map<string, number>): void => {
    console.log(`\n-- ${title} (% of busy) --`);
    for (const [k, us] of [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${((100 * us) / totals.busy).toFixed(1).padStart(6)} %  ${(us / 1000).toFixed(0).padStart(7)} ms ${perText(us)}  ${k}`);
    }
  };
  print('self time by function', totals.self);
  print('self time by package', totals.byPackage);
  if (values.callers !== undefined) print(`callers of ${values.callers}`, totals.callers);
}

main();
