import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describeWithTools, findTool, run } from './tools';

const PROMETHEUS_DIR = resolve(__dirname, '../../infra/prometheus');
const promtool = findTool('promtool', 'prometheus');

describeWithTools('infra/prometheus with promtool', [promtool], () => {
  it('prometheus.yml is a valid config (and finds its rule file)', async () => {
    const result = await run('promtool', ['check', 'config', 'prometheus.yml'], { cwd: PROMETHEUS_DIR });
    expect({ code: result.code, out: result.stdout + result.stderr }).toMatchObject({ code: 0 });
    expect(result.stdout).toMatch(/1 rule files found/);
  });

  it('alerts.yml is a valid rule file', async () => {
    const result = await run('promtool', ['check', 'rules', 'alerts.yml'], { cwd: PROMETHEUS_DIR });
    expect({ code: result.code, out: result.stdout + result.stderr }).toMatchObject({ code: 0 });
  });

  it('every alert has a unit test, and every unit test passes', async () => {
    const tests = readdirSync(join(PROMETHEUS_DIR, 'tests'))
      .filter((f) => f.endsWith('.yml'))
      .sort();
    const alerts = [...readFileSync(join(PROMETHEUS_DIR, 'alerts.yml'), 'utf8').matchAll(/^\s*- alert: (\S+)/gm)].map((m) => m[1] as string);
    const testText = tests.map((f) => readFileSync(join(PROMETHEUS_DIR, 'tests', f), 'utf8')).join('\n');
    // An alert counts as tested only where a test expects it to fire (not merely to stay silent).
    const untested = alerts.filter((name) => !new RegExp(`alertname: ${name}\\s*\\n\\s*exp_alerts:\\s*\\n\\s*- exp_labels`).test(testText));
    expect(alerts.length).toBeGreaterThanOrEqual(7);
    expect(untested).toEqual([]);

    const result = await run('promtool', ['test', 'rules', ...tests.map((f) => join('tests', f))], { cwd: PROMETHEUS_DIR });
    expect({ code: result.code, out: result.stdout + result.stderr }).toMatchObject({ code: 0 });
    for (const file of tests) expect(result.stdout + result.stderr).toContain(`Unit Testing:  tests/${file}\n  SUCCESS`);
  });
});
