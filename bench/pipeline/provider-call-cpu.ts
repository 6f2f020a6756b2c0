/**
 * CPU per provider call, the worker's side (SimulatorAdapter) and the simulators' side (the
 * provider app), without the rest of the pipeline: the simulators' provider fleet in a child
 * process, this process calling it through the adapter `--calls` times with `--concurrency`
 * calls in flight, each side's CPU (user + system) divided by the calls. Rounds alternate
 * with nothing else changed, so an A/B of the adapter or the app is a run before and after.
 *
 *   npx tsx bench/pipeline/provider-call-cpu.ts [--calls 20000] [--concurrency 64] [--rounds 3] [--latency-ms 20]
 */
import { fork } from 'node:child_process';
import { parseArgs } from 'node:util';
import { renderForChannel, type Channel } from '@notify/core';
import { SimulatorAdapter, type SendRequest } from '@notify/providers';
import { ProviderFleet } from '../../apps/simulators/src/provider-fleet';
import type { ChannelBehaviour } from '../../apps/simulators/src/channel-faults';
import { processCpuSeconds } from './proc-cpu';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '3' },
    'latency-ms': { type: 'string', default: '20' },
    child: { type: 'boolean', default: false },
  },
  strict: true,
});

async function child(): Promise<void> {
  const up: ChannelBehaviour = { mode: 'up', latencyMs: Number(values['latency-ms']), slowMs: 0, transientRate: 0, permanentRate: 0 };
  const fleet = new ProviderFleet({ host: '127.0.0.1', ports: { push: 0, sms: 0, email: 0 }, seed: 1, defaults: { push: up, sms: up, email: up } });
  const urls = await fleet.start();
  process.send?.({ urls });
  process.on('message', () => {
    void fleet.stop().then(() => process.exit(0));
  });
}

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

async function main(): Promise<void> {
  const calls = Number(values.calls);
  const concurrency = Number(values.concurrency);
  const sim = fork(__filename, ['--child', '--latency-ms', values['latency-ms']], { execArgv: ['--import', 'tsx'] });
  const urls = await new Promise<Record<Channel, string>>((resolve) => sim.once('message', (m) => resolve((m as { urls: Record<Channel, string> }).urls)));
  const adapter = new SimulatorAdapter({ kind: 'simulator', name: 'sms-sim', channel: 'sms', url: urls.sms, connections: 64 });
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
    const s0 = processCpuSeconds(sim.pid as number) ?? 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: concurrency }, lane));
    const seconds = (performance.now() - t0) / 1_000;
    return { client: ((cpuNow() - c0) * 1e6) / n, sim: (((processCpuSeconds(sim.pid as number) ?? 0) - s0) * 1e6) / n, rate: n / seconds, failed };
  };
  await round(Math.min(2_000, calls)); // warm-up: JIT, sockets
  for (let i = 1; i <= Number(values.rounds); i += 1) {
    const r = await round(calls);
    console.log(
      `round ${i}: ${calls} calls at ${r.rate.toFixed(0)}/s; CPU per call: adapter ${r.client.toFixed(1)} µs, simulator ${r.sim.toFixed(1)} µs; failed ${r.failed}`,
    );
  }
  await adapter.close();
  sim.send('stop');
  await new Promise((resolve) => sim.once('exit', resolve));
}

(values.child ? child() : main()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
