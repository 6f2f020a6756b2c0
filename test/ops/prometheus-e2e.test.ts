import { resolve } from 'node:path';
import { startTestPlatform, type TestPlatform } from '../harness/platform';
import { waitFor } from '@notify/platform-kit';
import { dashboardQueries, loadDashboard } from './dashboard';
import { startPrometheus, type RunningPrometheus } from './prometheus-server';
import { describeWithTools, findTool } from './tools';
import { sendNotifications } from './traffic';

/**
 * A real Prometheus scrapes the in-process platform (api + two workers) every second with the
 * production rule file loaded; traffic goes in through the API and the SLO numbers come back
 * out through the Prometheus HTTP API, checked against the processes' own /metrics.
 */
const NOTIFICATIONS = 300;
const RULES = resolve(__dirname, '../../infra/prometheus/alerts.yml');

const hostPort = (url: string) => new URL(url).host;

/** Sums the samples of `name` whose labels include `match` in a text exposition. */
function sumSamples(exposition: string, name: string, match: Record<string, string>): number {
  let total = 0;
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(match).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

let platform: TestPlatform | undefined;
let prometheus: RunningPrometheus | undefined;

afterAll(async () => {
  await prometheus?.stop();
  await platform?.stop();
});

describeWithTools('Prometheus end to end', [findTool('prometheus', 'prometheus')], () => {
  it('scrapes api and workers and reads delivery rate and urgent latency back', async () => {
    const started = performance.now();
    platform = await startTestPlatform({ workerCount: 2 });
    const running = platform;
    prometheus = await startPrometheus({
      intervalSeconds: 1,
      ruleFiles: [RULES],
      jobs: [
        // The api's metrics listener, not its public port (which has no /metrics).
        { job: 'notify-api', targets: [hostPort(running.api.metricsUrl)] },
        { job: 'notify-worker', targets: running.workers.map((w) => hostPort(w.metricsUrl)) },
      ],
    });
    const prom = prometheus;
    const scalar = async (expr: string) => {
      const result = await prom.query(expr);
      return result.length === 1 ? result[0]?.value : undefined;
    };

    await waitFor('all three targets up', async () => (await scalar('sum(up{job=~"notify-.*"})')) === 3, 20_000, 200).catch((error: Error) => {
      throw new Error(`${error.message}\n${prom.log()}`);
    });

    const { accepted } = await sendNotifications(running.api.url, NOTIFICATIONS, `e2e-${Date.now()}`);
    expect(accepted).toBe(NOTIFICATIONS);

    // Every notification terminal, as Prometheus sees it (sum over both workers).
    await waitFor(
      `${NOTIFICATIONS} terminal notifications in Prometheus`,
      async () => (await scalar('sum(notify_notifications_total)')) === NOTIFICATIONS,
      30_000,
      250,
    );

    // Ground truth: the workers' own expositions, read after the counters stopped moving.
    const direct = await Promise.all(running.workers.map(async (w) => (await fetch(w.metricsUrl)).text()));
    const sum = (name: string, match: Record<string, string>) => direct.reduce((acc, text) => acc + sumSamples(text, name, match), 0);
    const delivered = sum('notify_notifications_total', { outcome: 'delivered' });
    const terminal = sum('notify_notifications_total', {});
    const urgentSum = sum('notify_delivery_latency_seconds_sum', { priority: 'urgent' });
    const urgentCount = sum('notify_delivery_latency_seconds_count', { priority: 'urgent' });
    expect(terminal).toBe(NOTIFICATIONS);
    expect(urgentCount).toBeGreaterThan(0);

    const deliveryRate = await scalar('sum(notify_notifications_total{outcome="delivered"}) / sum(notify_notifications_total)');
    const urgentMean = await waitFor(
      'urgent latency count settled in Prometheus',
      async () => {
        const count = await scalar('sum(notify_delivery_latency_seconds_count{priority="urgent"})');
        return count === urgentCount
          ? scalar('sum(notify_delivery_latency_seconds_sum{priority="urgent"}) / sum(notify_delivery_latency_seconds_count{priority="urgent"})')
          : undefined;
      },
      10_000,
      250,
    );

    expect(deliveryRate).toBeCloseTo(delivered / terminal, 10);
    expect(urgentMean).toBeCloseTo(urgentSum / urgentCount, 6);
    // The brief's SLOs, at this test's time scale (cascade delays 300 ms instead of 30 s).
    expect(deliveryRate).toBeGreaterThanOrEqual(0.99);
    expect(urgentMean).toBeLessThan(5);

    // The production rule file loads and evaluates cleanly against real series.
    const rules = (await (await fetch(`${prom.url}/api/v1/rules`)).json()) as {
      data: { groups: { name: string; rules: { name: string; health: string; lastError?: string }[] }[] };
    };
    const unhealthy = rules.data.groups.flatMap((g) => g.rules).filter((r) => r.health !== 'ok' && r.health !== 'unknown');
    expect(rules.data.groups.map((g) => g.name).sort()).toEqual([
      'notify-delivery',
      'notify-history',
      'notify-receipts',
      'notify-schedule',
      'notify-tenants',
      'notify-tracking',
    ]);
    expect(unhealthy).toEqual([]);
    const recorded = await waitFor('recording rule notify:delivery_ratio:rate5m', () => scalar('notify:delivery_ratio:rate5m'), 30_000, 250);
    expect(recorded).toBeGreaterThan(0.9);
    expect(recorded).toBeLessThanOrEqual(1);
    const firing = await prom.query('ALERTS{alertstate="firing"}');
    expect(firing.map((s) => s.metric.alertname)).toEqual([]);

    // Every Grafana panel query is valid PromQL for this Prometheus.
    const broken: string[] = [];
    for (const { panel, expr } of dashboardQueries(loadDashboard())) {
      await prom.query(expr).catch((error: Error) => broken.push(`${panel}: ${error.message}`));
    }
    expect(broken).toEqual([]);

    const seconds = (performance.now() - started) / 1000;
    // eslint-disable-next-line no-console -- the figures are the point of this test
    console.log(
      `prometheus e2e: ${terminal} terminal, delivery rate ${deliveryRate?.toFixed(4)} (${delivered}/${terminal}), ` +
        `urgent mean ${urgentMean?.toFixed(3)} s over ${urgentCount} urgent deliveries, recorded 5m ratio ${recorded?.toFixed(4)}, ${seconds.toFixed(1)} s`,
    );
  }, 60_000);
});
