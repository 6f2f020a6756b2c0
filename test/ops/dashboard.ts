import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const DASHBOARD_FILE = resolve(__dirname, '../../infra/grafana/dashboards/notify-platform.json');

export interface DashboardPanel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: { expr: string; datasource?: { uid: string } }[];
}

export interface Dashboard {
  uid: string;
  panels: DashboardPanel[];
  annotations: { list: { expr?: string; datasource?: { uid: string } }[] };
}

export function loadDashboard(): Dashboard {
  return JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as Dashboard;
}

/** Every PromQL expression of the dashboard, with Grafana's variables replaced for a raw query. */
export function dashboardQueries(dashboard: Dashboard): { panel: string; expr: string }[] {
  const fromPanels = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));
  const fromAnnotations = dashboard.annotations.list.filter((a) => a.expr).map((a) => ({ panel: 'annotation', expr: a.expr as string }));
  return [...fromPanels, ...fromAnnotations].map((q) => ({ ...q, expr: q.expr.replaceAll('$__rate_interval', '1m') }));
}
