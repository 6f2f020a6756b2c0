import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { budgetedGetJson, Deadline, runStep } from '@notify/budget-chain';
import { log, mean, median } from './stats';

/**
 * What the budget wrapper costs per store call: bare undici GETs against runStep +
 * budgetedGetJson, both to a local server in this process, interleaved; then the cost of
 * deriving a child deadline. Bounded by `calls`. `cancelGraceMs` as the api runs its store
 * reads (its own abort controller per call).
 */
export async function measureOverhead(calls: number, cancelGraceMs = 0): Promise<void> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  const agent = new Agent({ connections: 1, keepAliveTimeout: 10_000 });
  const bare = async (): Promise<void> => {
    await (await request(url, { dispatcher: agent })).body.json();
  };
  const budgeted = async (): Promise<void> => {
    const req = new Deadline({ budgetMs: 1000, step: 'bench' });
    await runStep(req, 'x', 500, (ctx) => budgetedGetJson(url, { deadline: ctx.deadline, dispatcher: agent, cancelGraceMs }));
    req.dispose();
  };
  for (let i = 0; i < 300; i += 1) {
    await bare();
    await budgeted();
  } // warm-up
  // Blocks of 100 calls, alternating which kind goes first; the median of the per-block
  // differences, so a neighbour's burst that lands in a few blocks does not move the figure.
  // Wall clock and this process's CPU time (process.cpuUsage, client and server both live
  // here): on a shared machine the wall clock also counts the time other processes held
  // the cores, the CPU time does not.
  const perCall: Record<'bare' | 'budgeted', number[]> = { bare: [], budgeted: [] };
  const cpuPerCall: Record<'bare' | 'budgeted', number[]> = { bare: [], budgeted: [] };
  const diffs: number[] = [];
  const cpuDiffs: number[] = [];
  for (let block = 0; block < calls / 100; block += 1) {
    const order = block % 2 === 0 ? (['bare', 'budgeted'] as const) : (['budgeted', 'bare'] as const);
    const us: Record<string, number> = {};
    const cpu: Record<string, number> = {};
    for (const name of order) {
      const fn = name === 'bare' ? bare : budgeted;
      const t = performance.now();
      const c = process.cpuUsage();
      for (let i = 0; i < 100; i += 1) await fn();
      const used = process.cpuUsage(c);
      us[name] = ((performance.now() - t) * 1000) / 100;
      cpu[name] = (used.user + used.system) / 100;
      perCall[name].push(us[name]);
      cpuPerCall[name].push(cpu[name]);
    }
    diffs.push((us.budgeted as number) - (us.bare as number));
    cpuDiffs.push((cpu.budgeted as number) - (cpu.bare as number));
  }
  log(
    `bare undici GET (keep-alive, 1 socket, same run): median ${median(perCall.bare).toFixed(1)} µs/call; through runStep + budgetedGetJson (cancel grace ${cancelGraceMs} ms, as the api): median ${median(perCall.budgeted).toFixed(1)} µs/call; wrapper overhead: median of per-block differences ${median(diffs).toFixed(1)} µs/call (means: ${(mean(perCall.budgeted) - mean(perCall.bare)).toFixed(1)} µs) over ${calls} calls each, interleaved in blocks of 100`,
  );
  log(
    `  same calls in CPU time of this process (client + server): bare median ${median(cpuPerCall.bare).toFixed(1)} µs/call, budgeted ${median(cpuPerCall.budgeted).toFixed(1)} µs/call; wrapper overhead ${median(cpuDiffs).toFixed(1)} µs CPU/call (wall-clock overhead / bare: ${(median(diffs) / median(perCall.bare)).toFixed(2)})`,
  );
  const parent = new Deadline({ budgetMs: Number.POSITIVE_INFINITY, step: 'bench' });
  const n = 200_000;
  const t = performance.now();
  for (let i = 0; i < n; i += 1) parent.child('x', 50).dispose();
  log(
    `in-process: derive + dispose a child deadline (parent link, timer; no AbortController until its signal is read): ${(((performance.now() - t) * 1e6) / n).toFixed(0)} ns/op over ${n.toLocaleString('en')}`,
  );
  await agent.close();
  server.close();
}
