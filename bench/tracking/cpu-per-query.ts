/**
 * The api's CPU per tracking query, closed loop: `--concurrency` clients each send their next
 * query when the last one answered, so the api is never overloaded (nothing shed, no timer
 * late) and the figure is the path's own cost, even on a machine others keep busy (the
 * open-loop bench's CPU column also moves with how much was shed and how late timers ran).
 *
 *   npx tsx bench/tracking/cpu-per-query.ts [--queries 1500] [--concurrency 4] [--regime ay10|healthy] [--rounds 3] [--cpu-prof DIR]
 *
 * Prints api CPU µs per query (from /proc, less the api's idle CPU over the same time) per
 * round and their median, with the statuses seen.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Agent, request } from 'undici';
import { processCpuMs } from './cpu';
import { BENCH_KEY, startTrackingBed } from './processes';
import { runBench } from './run-bench';
import { median } from './stats';

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

async function main(): Promise<void> {
  const queries = Math.min(100_000, Number(flag('queries', '1500')));
  const concurrency = Math.min(64, Number(flag('concurrency', '4')));
  const rounds = Math.min(10, Number(flag('rounds', '3')));
  const slow = flag('regime', 'ay10') === 'ay10';
  const client = new Agent({ connections: 64, keepAliveTimeout: 10_000 });
  const post = async (url: string, body: unknown): Promise<void> => {
    await (await request(url, { method: 'POST', dispatcher: client, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).body.text();
  };
  const profileDir = flag('cpu-prof', '');
  if (profileDir !== '') mkdirSync(resolve(profileDir), { recursive: true });
  const bed = await startTrackingBed(profileDir === '' ? {} : { cpuProfileDir: resolve(profileDir) });
  try {
    const api = await bed.startApi({
      TRACKING_SPLIT_POLICY: 'weighted',
      TRACKING_CANCEL: 'true',
      TRACKING_STORE_CONNECTIONS: '256',
      // Never shed: on a busy machine the loop delay includes the time others held the cores,
      // and a shed query (a 503) costs less than an answered one, which would flatter the figure.
      TRACKING_SHED_LOOP_DELAY_MS: '0',
    });
    await post(`${bed.storesUrl}/control/reset`, {});
    await post(`${bed.storesUrl}/control/tariff`, { mode: slow ? 'slow' : 'healthy' });
    await post(`${bed.storesUrl}/control/cancellation`, { honour: true });
    let idleMsPerS = 0;
    const perRound: number[] = [];
    for (let round = 0; round <= rounds; round += 1) {
      const statuses = new Map<number, number>();
      let next = 0;
      const cpu0 = processCpuMs(api.pid);
      const t0 = performance.now();
      const worker = async (): Promise<void> => {
        for (let i = next++; i < queries; i = next++) {
          const res = await request(`${api.url}/v1/tracking/SHP-C${i}`, { dispatcher: client, headers: { authorization: `Bearer ${BENCH_KEY}` } });
          await res.body.text();
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      const seconds = (performance.now() - t0) / 1000;
      const cpuMs = (processCpuMs(api.pid) ?? Number.NaN) - (cpu0 ?? Number.NaN) - idleMsPerS * seconds;
      const us = (cpuMs * 1000) / queries;
      const seen = [...statuses.entries()].map(([s, n]) => `${s}:${n}`).join(' ');
      // The first pass warms the JIT and the connection pools; it is printed, not counted.
      if (round > 0) perRound.push(us);
      else {
        // The api's own background (loop-delay sampling, shedder window, Redis, metrics) costs CPU
        // whether queries come or not: measured once warm, and subtracted from every counted round,
        // so a slow closed loop does not spread it over few queries.
        const idle0 = processCpuMs(api.pid) ?? Number.NaN;
        const idleT0 = performance.now();
        await new Promise((r) => setTimeout(r, 5000));
        idleMsPerS = ((processCpuMs(api.pid) ?? Number.NaN) - idle0) / ((performance.now() - idleT0) / 1000);
        console.log(`api idle: ${idleMsPerS.toFixed(1)} ms of CPU per second`);
      }
      console.log(
        `${round === 0 ? 'warm-up' : `round ${round}`}: ${queries} queries in ${seconds.toFixed(1)} s, api CPU ${us.toFixed(0)} µs/query${round > 0 ? ' beyond idle' : ''} (${seen})`,
      );
    }
    console.log(
      `api CPU per query, median of ${rounds} rounds: ${median(perRound).toFixed(0)} µs (${slow ? 'AY10' : 'healthy'}, weighted, cancellation on, ${concurrency} in flight)`,
    );
    await api.stop();
  } finally {
    await bed.stop();
    await client.close();
  }
}

runBench(main);
