/**
 * Sums a V8 .cpuprofile (as written by `bench:tracking --cpu-prof DIR`) by function and by
 * package: self time, and inclusive time for the frames of the request path.
 *
 *   npx tsx bench/tracking/cpuprofile-top.ts <file.cpuprofile> [--top 40] [--window runTrackingQuery] [--stacks functionName]
 *
 * Only the samples between the first and the last one whose stack holds `--window` (a function
 * name) are counted, so start-up and the idle tail do not dilute the load phase.
 */
import { readFileSync } from 'node:fs';

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

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

/** Where a frame's code lives: a package, node's internals, or the repo's own path. */
function origin(url: string): string {
  if (url === '') return '(native/vm)';
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 'node_modules/'.length).split('/');
    return `npm:${parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]}`;
  }
  const repo = /\/(apps|packages|bench)\/(.*)$/.exec(url);
  return repo ? `${repo[1]}/${repo[2]}` : url;
}

function frameKey(f: CallFrame): string {
  const file = f.url === '' ? '' : ` ${origin(f.url)}:${f.lineNumber + 1}`;
  return `${f.functionName || '(anonymous)'}${file}`;
}

function main(): void {
  const file = process.argv[2];
  if (file === undefined) throw new Error('usage: cpuprofile-top.ts <file.cpuprofile> [--top N] [--window functionName]');
  const top = Number(arg('top', '40'));
  const windowFn = arg('window', 'runTrackingQuery');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (id: number): ProfileNode[] => {
    const stack: ProfileNode[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) stack.push(byId.get(cur) as ProfileNode);
    return stack;
  };
  // timeDeltas[i + 1] is the time sample i stood for (the delta before the next sample).
  const times = profile.samples.map((_, i) => profile.timeDeltas[i + 1] ?? 0);
  const marks = profile.samples.map((id) => stackOf(id).some((n) => n.callFrame.functionName === windowFn));
  const first = marks.indexOf(true);
  const last = marks.lastIndexOf(true);
  const from = first < 0 ? 0 : first;
  const to = first < 0 ? profile.samples.length - 1 : last;

  const self = new Map<string, number>();
  const selfByOrigin = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  let idle = 0;
  for (let i = from; i <= to; i += 1) {
    const id = profile.samples[i] as number;
    const us = times[i] as number;
    const node = byId.get(id) as ProfileNode;
    total += us;
    if (node.callFrame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const key = frameKey(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + us);
    const o = node.callFrame.url === '' ? node.callFrame.functionName || '(native/vm)' : origin(node.callFrame.url);
    const pkg = o.startsWith('node:') ? o : o.startsWith('npm:') ? o : o.split('/').slice(0, 3).join('/');
    selfByOrigin.set(pkg, (selfByOrigin.get(pkg) ?? 0) + us);
    const seen = new Set<string>();
    for (const n of stackOf(id)) {
      const k = frameKey(n.callFrame);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + us);
    }
  }
  const busy = total - idle;
  const windowCalls = marks.filter(Boolean).length;
  console.log(
    `${file}: window ${(total / 1e6).toFixed(2)} s (samples with ${windowFn} on the stack), busy ${(busy / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s`,
  );
  if (windowCalls > 0) console.log(`(${windowCalls} sampled stacks held ${windowFn})`);
  const print = (title: string, map: Map<string, number>, n: number): void => {
    console.log(`\n-- ${title} (% of busy) --`);
    for (const [k, us] of [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n))
      console.log(`${((100 * us) / busy).toFixed(1).padStart(6)} %  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
  };
  print('self time by function', self, top);
  print('self time by origin', selfByOrigin, 25);
  print('inclusive time by function', inclusive, top);
  const stacksOf = arg('stacks', '');
  if (stacksOf !== '') {
    // Who calls `--stacks`: the 8 frames above it, summed over the window's samples.
    const paths = new Map<string, number>();
    for (let i = from; i <= to; i += 1) {
      const stack = stackOf(profile.samples[i] as number);
      const at = stack.findIndex((n) => n.callFrame.functionName === stacksOf);
      if (at < 0) continue;
      const path = stack
        .slice(at, at + 9)
        .map((n) => frameKey(n.callFrame))
        .join(' < ');
      paths.set(path, (paths.get(path) ?? 0) + (times[i] as number));
    }
    print(`stacks of ${stacksOf}`, paths, 15);
  }
  const below = arg('below', '');
  if (below !== '') {
    // Where `--below`'s time goes: inclusive time of the frames it calls, 1 to 3 levels down.
    const callees = new Map<string, number>();
    for (let i = from; i <= to; i += 1) {
      const stack = stackOf(profile.samples[i] as number);
      const at = stack.findIndex((n) => n.callFrame.functionName === below);
      if (at < 0) continue;
      for (let depth = 1; depth <= 3 && at - depth >= 0; depth += 1) {
        const k = `${'  '.repeat(depth - 1)}${stack
          .slice(at - depth, at)
          .reverse()
          .map((n) => frameKey(n.callFrame))
          .join(' > ')}`;
        callees.set(k, (callees.get(k) ?? 0) + (times[i] as number));
      }
      if (at === 0) callees.set('(self)', (callees.get('(self)') ?? 0) + (times[i] as number));
    }
    print(`below ${below} (inclusive, 1-3 levels)`, callees, 60);
  }
}

main();
