import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { dashboardQueries, loadDashboard } from './dashboard';

/** Static checks; the queries themselves run against a real Prometheus in prometheus-e2e.test.ts. */
const PROVISIONING = resolve(__dirname, '../../infra/grafana/provisioning');

describe('grafana dashboard and provisioning', () => {
  const dashboard = loadDashboard();

  it('uses the provisioned datasource everywhere', () => {
    const datasource = readFileSync(resolve(PROVISIONING, 'datasources/prometheus.yml'), 'utf8');
    const uid = /uid:\s*(\S+)/.exec(datasource)?.[1];
    expect(uid).toBe('notify-prometheus');
    expect(datasource).toMatch(/url:\s*http:\/\/prometheus:9090/);
    const uids = new Set([
      ...dashboard.panels.filter((p) => p.type !== 'row').map((p) => p.datasource?.uid),
      ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.datasource?.uid)),
      ...dashboard.annotations.list.map((a) => a.datasource?.uid),
    ]);
    expect([...uids]).toEqual([uid]);
  });

  it('is loaded by the dashboard provider from the mounted folder', () => {
    const provider = readFileSync(resolve(PROVISIONING, 'dashboards/notify.yml'), 'utf8');
    expect(provider).toMatch(/type:\s*file/);
    expect(provider).toMatch(/path:\s*\/var\/lib\/grafana\/dashboards/);
  });

  it('has unique panel ids and a layout within 24 columns', () => {
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(dashboard.panels.filter((p) => p.gridPos.x + p.gridPos.w > 24)).toEqual([]);
  });

  it.each([
    ['delivery rate vs SLO', /notify:delivery_ratio:rate(5m|30m)/],
    ['latency by priority', /notify_delivery_latency_seconds/],
    ['attempts by channel and outcome', /sum by \(channel, outcome\) \(rate\(notify_delivery_attempts_total/],
    ['breaker states', /notify_breaker_state/],
    ['queue depths', /notify_queue_jobs|notify_queue_backlog/],
    ['tracking path', /notify_tracking_requests_total|notify:tracking_error_ratio/],
    ['tracking steps', /notify_tracking_step_duration_seconds_bucket/],
    ['history backlog', /max\(notify_history_backlog\)/],
    ['archive rate', /rate\(notify_history_archived_total/],
    ['archive failures', /rate\(notify_history_archive_failures_total/],
  ])('shows %s', (_what, pattern) => {
    expect(dashboardQueries(dashboard).some((q) => pattern.test(q.expr))).toBe(true);
  });
});
