/**
 * CPU per provider call, the worker's side (SimulatorAdapter) and the simulators' side (the
 * provider app), without the rest of the pipeline: the simulators app as its own process (run
 * by path, as the bench runs every app), this process calling it through the adapter `--calls`
 * times with `--concurrency` calls in flight, each side's CPU (user + system) divided by the
 * calls. Rounds alternate with nothing else changed, so an A/B of the adapter or the app is a
 * run before and after.
 *
 *   npx tsx bench/pipeline/provider-call-cpu.ts [--calls 20000] [--concurrency 64] [--rounds 3] [--latency-ms 20]
 */
import { parseArgs } from 'node:util';
import { renderForChannel } from '@notify/core';
import { ProcessGroup, DEFAULT_ENTRIES, startSimulatorsOnFreePorts } from '@notify/platform-kit';
import { SimulatorAdapter, type SendRequest } from '@notify/providers';
import { processCpuSeconds } from './proc-cpu';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '3' },
    'latency-ms': { type: 'string', default: '20' },
  },
  strict: true,
});

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function main(): Promise<void> {
  const calls = Number(values.calls);
  const concurrency = Number(values.concurrency);
  const group = new ProcessGroup();
  try {
    const sim = await startSimulatorsOnFreePorts(group, {
      entry: DEFAULT_ENTRIES.simulators,
      env: { ...process.env, SIM_LATENCY_MS: values['latency-ms'], SIM_TRANSIENT_RATES: '0,0,0', SIM_PERMANENT_RATES: '0,0,0', LOG_LEVEL: 'warn' },
      timeoutMs: 60_000,
    });
    const ports = sim.ports;
    await measure(sim.process.process.pid as number, `http://127.0.0.1:${ports.sms}`, calls, concurrency);
  } finally {
    await group.stopAll();
  }
}

async function measure(simPid: number, url: string, calls: number, concurrency: number): Promise<void> {
  const adapter = new SimulatorAdapter({ kind: 'simulator', name: 'sms-sim', channel: 'sms', url, connections: 64 });
  const message = renderForChannel('sms', { title: 'Kargo', body: 'Kargonuz yolda, şoförümüz çıktı; takip kodu 1234567890' }, { smsMaxSegments: 3 });
  let seq = 0;
  const request = (): SendRequest => {
    seq += 1;
    const id = `n-${process.pid}-${seq}`;
    return { notificationId: id, idempotencyKey: `key-${id}`, to: '+905551112233', message, priority: 'urgent' };
  };
  const round = async (n: number) => {
    let next = 0;
    let failed = 0;
    const lane = async () => {
      while (next < n) {
        next += 1;
        if ((await adapter.send(request())).outcome !== 'delivered') failed += 1;
      }
    };
    const c0 = cpuNow();
    const s0 = processCpuSeconds(simPid) ?? 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, lane));
    const seconds = (performance.now() - t0) / 1_000;
    return { client: ((cpuNow() - c0) * 1e6) / n, sim: (((processCpuSeconds(simPid) ?? 0) - s0) * 1e6) / n, rate: n / seconds, failed };
  };
  await round(Math.min(2_000, calls)); // warm-up: JIT, sockets
  for (let i = 1; i <= Number(values.rounds); i += 1) {
    const r = await round(calls);
    console.log(
      `round ${i}: ${calls} calls at ${r.rate.toFixed(0)}/s; CPU per call: adapter ${r.client.toFixed(1)} µs, simulator ${r.sim.toFixed(1)} µs; failed ${r.failed}`,
    );
  }
  await adapter.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
