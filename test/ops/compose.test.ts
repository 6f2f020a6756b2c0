import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describeWithTools, findTool, run } from './tools';

/**
 * No Docker engine here: the compose file is validated and normalised by `docker-compose
 * config` and its shape checked. YAML is read through python3's yaml module, which the Debian
 * docker-compose package depends on (no YAML parser among the npm dependencies).
 */
const ROOT = resolve(__dirname, '../..');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  container_name?: string;
  ports?: unknown[];
  expose?: unknown[];
  environment?: Record<string, string>;
  healthcheck?: { test?: string[] };
  depends_on?: Record<string, { condition?: string }>;
  stop_grace_period?: string;
  init?: boolean;
}

async function yamlToJson<T>(yaml: string): Promise<T> {
  const result = await run('python3', ['-c', 'import sys, json, yaml; json.dump(yaml.safe_load(sys.stdin), sys.stdout)'], { input: yaml });
  if (result.code !== 0) throw new Error(`python3 yaml: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

const seconds = (duration: string | undefined) => {
  const match = /^(\d+)(ms|s|m)$/.exec(duration ?? '');
  if (!match) return 10; // Docker's default stop timeout
  return Number(match[1]) * ({ ms: 0.001, s: 1, m: 60 } as Record<string, number>)[match[2] as string]!;
};

describeWithTools('docker-compose.yml', [findTool('docker-compose', 'docker-compose'), findTool('python3', 'python3-yaml')], () => {
  let services: Record<string, Service>;
  let volumes: Record<string, unknown>;

  // The compose file ships no keys: `config` is given test values, as an operator's .env would.
  const KEYS_ENV = { ...process.env, API_KEYS: `${'k'.repeat(40)}:tenant-a`, ADMIN_API_KEY: 'a'.repeat(40), POSTGRES_PASSWORD: 'p'.repeat(40) };

  beforeAll(async () => {
    const result = await run('docker-compose', ['-f', 'docker-compose.yml', 'config'], { cwd: ROOT, env: KEYS_ENV });
    if (result.code !== 0) throw new Error(`docker-compose config failed:\n${result.stderr}`);
    const config = await yamlToJson<{ services: Record<string, Service>; volumes: Record<string, unknown> }>(result.stdout);
    services = config.services;
    volumes = config.volumes;
  });

  it('defines the seven services', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'grafana', 'postgres', 'prometheus', 'redis', 'simulators', 'worker']);
  });

  it("runs the history's PostgreSQL on a volume, health-checked, off the host's ports, and points both apps at it", () => {
    const postgres = services.postgres!;
    expect(postgres.image).toMatch(/^postgres:\d+/);
    expect(Object.keys(volumes)).toContain('postgres-data');
    expect(JSON.stringify((postgres as { volumes?: unknown }).volumes)).toContain('postgres-data:/var/lib/postgresql/data');
    expect(postgres.healthcheck?.test).toEqual(expect.arrayContaining(['pg_isready']));
    expect(postgres.ports).toBeUndefined();
    expect(postgres.environment).toMatchObject({ POSTGRES_USER: 'notify', POSTGRES_DB: 'notify', POSTGRES_PASSWORD: 'p'.repeat(40) });
    for (const name of ['api', 'worker']) {
      expect(services[name]!.environment).toMatchObject({ DATABASE_URL: `postgres://notify:${'p'.repeat(40)}@postgres:5432/notify`, HISTORY_ENABLED: 'true' });
      expect(services[name]!.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
    }
  });

  it('runs redis 7 with AOF and noeviction on a volume', () => {
    const redis = services.redis!;
    expect(redis.image).toMatch(/^redis:7/);
    const args = (redis.command ?? []).join(' ');
    expect(args).toMatch(/--appendonly yes/);
    expect(args).toMatch(/--maxmemory-policy noeviction/);
    expect(Object.keys(volumes)).toContain('redis-data');
  });

  it('lets the worker scale: no container name, no host port', () => {
    const worker = services.worker!;
    expect(worker.container_name).toBeUndefined();
    expect(worker.ports).toBeUndefined();
  });

  it('health-gates every dependency: each depends_on waits for service_healthy of a service with a healthcheck', () => {
    const edges = Object.entries(services).flatMap(([name, s]) =>
      Object.entries(s.depends_on ?? {}).map(([dep, cond]) => ({ name, dep, condition: cond.condition })),
    );
    expect(edges.length).toBeGreaterThanOrEqual(6);
    expect(edges.filter((e) => e.condition !== 'service_healthy')).toEqual([]);
    expect(edges.filter((e) => !services[e.dep]?.healthcheck?.test?.length).map((e) => e.dep)).toEqual([]);
    expect(
      Object.entries(services)
        .filter(([, s]) => !s.healthcheck?.test?.length)
        .map(([name]) => name),
    ).toEqual([]);
    expect(Object.keys(services.worker!.depends_on ?? {}).sort()).toEqual(['postgres', 'redis', 'simulators']);
    expect(Object.keys(services.api!.depends_on ?? {})).toContain('redis');
  });

  it('configures the apps for containers and the production profile', () => {
    const api = services.api!.environment ?? {};
    const worker = services.worker!.environment ?? {};
    expect(api).toMatchObject({ NODE_ENV: 'production', REDIS_URL: 'redis://redis:6379', API_HOST: '0.0.0.0' });
    expect(worker).toMatchObject({
      NODE_ENV: 'production',
      REDIS_URL: 'redis://redis:6379',
      WORKER_METRICS_HOST: '0.0.0.0',
      PROVIDER_PUSH_URL: 'http://simulators:4101',
      PROVIDER_SMS_URL: 'http://simulators:4102',
      PROVIDER_EMAIL_URL: 'http://simulators:4103',
    });
    expect(services.simulators!.environment).toMatchObject({ SIM_HOST: '0.0.0.0' });
  });

  it('ships no default keys: without API_KEYS, ADMIN_API_KEY or POSTGRES_PASSWORD in the environment, config refuses, naming them', async () => {
    const env = { ...process.env };
    delete env.API_KEYS;
    delete env.ADMIN_API_KEY;
    delete env.POSTGRES_PASSWORD;
    // compose names the first missing variable it meets: each check leaves out one.
    const password = { POSTGRES_PASSWORD: KEYS_ENV.POSTGRES_PASSWORD };
    // Three independent runs of a slow-starting tool: side by side.
    const config = (vars: NodeJS.ProcessEnv) => run('docker-compose', ['-f', 'docker-compose.yml', 'config'], { cwd: ROOT, env: { ...env, ...vars } });
    const [result, withoutAdmin, withoutPassword] = await Promise.all([
      config(password),
      config({ ...password, API_KEYS: KEYS_ENV.API_KEYS }),
      config({ API_KEYS: KEYS_ENV.API_KEYS, ADMIN_API_KEY: KEYS_ENV.ADMIN_API_KEY }),
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/API_KEYS|ADMIN_API_KEY/);
    expect(withoutAdmin.code).not.toBe(0);
    expect(withoutAdmin.stderr).toMatch(/ADMIN_API_KEY/);
    expect(withoutPassword.code).not.toBe(0);
    expect(withoutPassword.stderr).toMatch(/POSTGRES_PASSWORD/);
    const text = readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8');
    expect(text).not.toMatch(/dev-(admin-)?key-change-me/);
  });

  it('keeps /metrics off the published api port: its own listener, exposed to the network only', () => {
    const api = services.api!;
    expect(api.environment).toMatchObject({ API_METRICS_HOST: '0.0.0.0', API_METRICS_PORT: '9465' });
    expect(JSON.stringify(api.ports)).not.toContain('9465');
    expect(api.expose?.map(String)).toContain('9465');
  });

  it('gives draining processes longer than their grace period, and signals reach the app (no npx)', () => {
    for (const name of ['api', 'worker', 'simulators']) {
      const service = services[name]!;
      expect(service.build).toBeDefined();
      // The app is the process itself, compiled: not behind npx (drops SIGTERM) nor tsx (dev only).
      expect(service.command).toEqual(['node', `apps/${name}/dist/main.js`]);
      expect(service.init).toBe(true);
      const grace = Number(service.environment?.SHUTDOWN_GRACE_MS ?? 15_000) / 1000;
      expect(seconds(service.stop_grace_period)).toBeGreaterThan(grace);
    }
  });

  it('agrees with prometheus.yml: the api and worker ports are the ones scraped', async () => {
    const prom = await yamlToJson<{
      scrape_configs: { job_name: string; static_configs?: { targets: string[] }[]; dns_sd_configs?: { names: string[]; port: number }[] }[];
    }>(readFileSync(resolve(ROOT, 'infra/prometheus/prometheus.yml'), 'utf8'));
    const job = (name: string) => prom.scrape_configs.find((j) => j.job_name === name);
    expect(job('notify-api')?.static_configs?.[0]?.targets).toEqual([`api:${services.api!.environment?.API_METRICS_PORT}`]);
    expect(job('notify-worker')?.dns_sd_configs?.[0]).toMatchObject({ names: ['worker'], port: Number(services.worker!.environment?.WORKER_METRICS_PORT) });
  });

  it('has a multi-stage Dockerfile on node:20-slim whose image runs the compiled app with node, without dev dependencies, as a non-root user', () => {
    const dockerfile = readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8');
    // The last stage is the image; its instructions only (comments may name the sources).
    const final = dockerfile
      .slice(dockerfile.lastIndexOf('\nFROM '))
      .split('\n')
      .filter((line) => !line.startsWith('#'))
      .join('\n');
    expect(final).toMatch(/^FROM node:20-slim$/m);
    expect(dockerfile).toMatch(/^RUN npm ci --omit=dev\b/m);
    expect(final).not.toMatch(/npm ci(?! --omit=dev)|tsx|\/src\//);
    expect(final).toMatch(/^USER node$/m);
    expect(final).toMatch(/^CMD \["node", "apps\/api\/dist\/main\.js"\]$/m);
    expect(readFileSync(resolve(ROOT, '.dockerignore'), 'utf8')).toMatch(/^node_modules$/m);
  });
});
