import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADDRESS_IN_USE, freePort, PortTakenError, retryOnPortTaken, waitFor } from '@notify/platform-kit';

export interface ScrapeJob {
  job: string;
  /** host:port pairs on loopback. */
  targets: string[];
  metricsPath?: string;
}

export interface PromSample {
  metric: Record<string, string>;
  value: number;
}

export interface RunningPrometheus {
  url: string;
  /** Instant query through the HTTP API (/api/v1/query); throws on a non-success answer. */
  query(expr: string): Promise<PromSample[]>;
  /** Output so far (for failure messages). */
  log(): string;
  /** SIGTERM, then SIGKILL after 5 s; removes the storage directory. Safe to call twice. */
  stop(): Promise<void>;
}

/** A config for a test Prometheus: fast scrapes and rule evaluation, loopback targets only. */
export function renderConfig(jobs: ScrapeJob[], ruleFiles: string[], intervalSeconds: number): string {
  const lines = [
    'global:',
    `  scrape_interval: ${intervalSeconds}s`,
    `  scrape_timeout: ${intervalSeconds}s`,
    `  evaluation_interval: ${intervalSeconds}s`,
    'rule_files:',
    ...(ruleFiles.length > 0 ? ruleFiles.map((f) => `  - ${JSON.stringify(f)}`) : ['  []']),
    'scrape_configs:',
  ];
  for (const job of jobs) {
    lines.push(
      `  - job_name: ${JSON.stringify(job.job)}`,
      `    metrics_path: ${JSON.stringify(job.metricsPath ?? '/metrics')}`,
      '    static_configs:',
      `      - targets: [${job.targets.map((t) => JSON.stringify(t)).join(', ')}]`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Starts the `prometheus` binary (Debian package) on a free loopback port with a temporary
 * storage directory, and waits until it is ready; started again on a fresh port when another
 * process binds the one found free first.
 */
export function startPrometheus(options: { jobs: ScrapeJob[]; ruleFiles?: string[]; intervalSeconds?: number }): Promise<RunningPrometheus> {
  return retryOnPortTaken('prometheus', () => startOnFreePort(options));
}

async function startOnFreePort(options: { jobs: ScrapeJob[]; ruleFiles?: string[]; intervalSeconds?: number }): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'notify-prometheus-'));
  const configFile = join(dir, 'prometheus.yml');
  writeFileSync(configFile, renderConfig(options.jobs, options.ruleFiles ?? [], options.intervalSeconds ?? 1));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--storage.tsdb.retention.time=1h',
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.on('error', (error) => {
    output += `spawn error: ${error.message}\n`;
  });

  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const query = async (expr: string): Promise<PromSample[]> => {
    const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(expr)}`);
    const body = (await res.json()) as {
      status: string;
      error?: string;
      data?: { resultType: string; result: { metric: Record<string, string>; value: [number, string] }[] };
    };
    if (body.status !== 'success' || !body.data) throw new Error(`query ${expr} failed: ${body.error ?? res.status}`);
    if (body.data.resultType !== 'vector') throw new Error(`query ${expr} returned a ${body.data.resultType}, expected a vector`);
    return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  };

  try {
    await waitFor(
      'prometheus /-/ready',
      async () => {
        if (child.exitCode !== null) throw new Error(`prometheus exited with ${child.exitCode}: ${output}`);
        return (await fetch(`${url}/-/ready`)).status === 200;
      },
      20_000,
      100,
    );
  } catch (error) {
    const exited = child.exitCode !== null;
    await stop();
    if (exited && ADDRESS_IN_USE.test(output)) throw new PortTakenError(`prometheus could not bind port ${port}`);
    throw error;
  }
  return { url, query, log: () => output, stop };
}
