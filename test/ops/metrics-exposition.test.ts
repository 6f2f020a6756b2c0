import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startTestPlatform, type TestPlatform } from '../harness/platform';
import { waitFor } from '@notify/platform-kit';
import { describeWithTools, findTool, run } from './tools';
import { metricFamilies, sendNotifications } from './traffic';

// The metric catalog is packages/metrics' README (the root README links it).
const README = resolve(__dirname, '../../packages/metrics/README.md');

let platform: TestPlatform | undefined;
const expositions: { process: string; text: string }[] = [];
let beforeTraffic = '';

beforeAll(async () => {
  platform = await startTestPlatform();
  const idle = platform.workers[0];
  if (idle) beforeTraffic = await (await fetch(idle.metricsUrl)).text();
  // Traffic first, so labelled series (not only HELP/TYPE) are in the exposition.
  const { accepted } = await sendNotifications(platform.api.url, 30, `expo-${Date.now()}`);
  expect(accepted).toBe(30);
  const worker = platform.workers[0];
  if (!worker) throw new Error('platform started without a worker');
  await waitFor(
    'deliveries in the worker metrics',
    async () => {
      const text = await (await fetch(worker.metricsUrl)).text();
      return /^notify_notifications_total\{[^}]*outcome="delivered"[^}]*\} [1-9]/m.test(text);
    },
    20_000,
    100,
  );
  expositions.push({ process: 'api', text: await (await fetch(platform.api.metricsUrl)).text() });
  expositions.push({ process: 'worker', text: await (await fetch(worker.metricsUrl)).text() });
}, 60_000);

afterAll(async () => {
  await platform?.stop();
});

describeWithTools('metrics exposition passes promtool check metrics', [findTool('promtool', 'prometheus')], () => {
  it.each(['api', 'worker'])('%s /metrics has no lint findings', async (name) => {
    const exposition = expositions.find((e) => e.process === name);
    expect(exposition?.text).toMatch(/^# TYPE notify_/m);
    expect(exposition?.text).toMatch(/^# TYPE nodejs_eventloop_lag_seconds gauge$/m);
    const result = await run('promtool', ['check', 'metrics'], { input: exposition?.text ?? '' });
    // promtool exits 3 when it has findings and prints one per line (on stderr in 2.42).
    const findings = `${result.stdout}\n${result.stderr}`
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    expect(findings).toEqual([]);
    expect(result.code).toBe(0);
  });
});

// A series Prometheus first scrapes at its final value has no rate: the delivery-ratio rules need
// every terminal series present (at 0) before the first notification ends.
describe('terminal outcome series', () => {
  it('are exposed at 0 by an idle worker, for every priority and outcome', () => {
    const zero = beforeTraffic.split('\n').filter((line) => line.startsWith('notify_notifications_total{'));
    const series = zero.map((line) => line.slice(0, line.lastIndexOf(' '))).sort();
    expect(series).toEqual(
      ['urgent', 'reminder']
        .flatMap((priority) =>
          ['delivered', 'failed', 'unconfirmed'].map((outcome) => `notify_notifications_total{priority="${priority}",outcome="${outcome}",app="worker"}`),
        )
        .sort(),
    );
    expect(zero.every((line) => line.endsWith(' 0'))).toBe(true);
  });
});

describe('README metric catalog', () => {
  it('names every notify_* metric the api and the worker expose', () => {
    const exposed = [...new Set(expositions.flatMap((e) => metricFamilies(e.text)).filter((n) => n.startsWith('notify_')))].sort();
    expect(exposed.length).toBeGreaterThanOrEqual(10);
    if (!existsSync(README)) throw new Error('no packages/metrics/README.md: the metric catalog lives there');
    const readme = readFileSync(README, 'utf8');
    const missing = exposed.filter((name) => !new RegExp(`\\b${name}\\b`).test(readme));
    expect(missing).toEqual([]);
  });
});
