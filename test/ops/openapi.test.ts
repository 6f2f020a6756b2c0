import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import type { Express } from 'express';
import pino from 'pino';
import request from 'supertest';
import { startPrivateRedis, type PrivateRedis } from '@notify/platform-kit';
import { startApi, type RunningApi } from '../../apps/api/src/api-runtime';
import { loadConfig } from '../../apps/api/src/config';
import { buildOpenApiDocument, EXAMPLES, listExpressRoutes, NAMED_SCHEMAS, type SchemaName } from '../../apps/api/src/openapi';

const OUTPUT = join(__dirname, '..', '..', 'test-output', 'openapi');
type Doc = { paths: Record<string, Record<string, unknown>> };

/** Express `:name` params in OpenAPI's `{name}` form. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** Routes one side has and the other lacks, as "METHOD path". */
function routeDiff(served: readonly { method: string; path: string }[], doc: Doc) {
  const inApp = new Set(served.map((r) => `${r.method.toUpperCase()} ${openApiPath(r.path)}`));
  const inDoc = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)));
  return {
    undocumented: [...inApp].filter((r) => !inDoc.has(r)).sort(),
    notServed: [...inDoc].filter((r) => !inApp.has(r)).sort(),
  };
}

/** The validator is ESM-only: run it in a plain node process, as its README shows. */
function validate(doc: unknown): { valid: boolean; errors?: unknown } {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    const input = await new Promise((resolve) => { let s = ''; process.stdin.on('data', (c) => (s += c)).on('end', () => resolve(s)); });
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(input));
    process.stdout.write(JSON.stringify({ version: validator.version, ...result }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { input: JSON.stringify(doc), cwd: join(__dirname, '..', '..') });
  return JSON.parse(out.toString()) as { valid: boolean; errors?: unknown };
}

describe('OpenAPI document (/openapi.json, /docs)', () => {
  let redis: PrivateRedis;
  let api: RunningApi;
  let app: Express;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    // The app exactly as the api process builds it (startApi, every router it mounts): its
    // request handler is caught on its way into node's http.createServer.
    const createServer = jest.spyOn(http, 'createServer');
    let calls: unknown[][];
    try {
      api = await startApi(loadConfig({ REDIS_URL: redis.url, API_PORT: '0', API_METRICS_PORT: '0', LOG_LEVEL: 'silent' }), pino({ level: 'silent' }));
    } finally {
      calls = [...createServer.mock.calls]; // mockRestore() forgets them
      createServer.mockRestore();
    }
    const handlers = calls.flatMap((args) => args.filter((a): a is Express => typeof a === 'function' && 'router' in a));
    if (handlers.length !== 1)
      throw new Error(`expected the api's one Express app among the servers it created, found ${handlers.length} (of ${calls.length} servers)`);
    app = handlers[0]!;
    mkdirSync(OUTPUT, { recursive: true });
  });

  afterAll(async () => {
    await api?.close();
    await redis?.stop();
  });

  it('documents every route the app serves, and serves every route it documents', () => {
    const doc = buildOpenApiDocument() as Doc;
    // Swagger UI's own files under /docs/ are the page's assets, not API routes.
    const served = listExpressRoutes(app).filter((r) => !r.path.startsWith('/docs/'));
    writeFileSync(join(OUTPUT, 'routes.json'), JSON.stringify(served, null, 2));
    expect(served.length).toBeGreaterThanOrEqual(10);
    expect(routeDiff(served, doc)).toEqual({ undocumented: [], notServed: [] });

    // The check can fail: a document without one of the routes names it.
    const rest = { ...doc.paths };
    delete rest['/v1/recipients/{id}'];
    expect(routeDiff(served, { paths: rest }).undocumented).toEqual(['DELETE /v1/recipients/{id}', 'GET /v1/recipients/{id}', 'PUT /v1/recipients/{id}']);
  });

  it('is valid OpenAPI 3.1 according to @seriousme/openapi-schema-validator', () => {
    const doc = buildOpenApiDocument();
    writeFileSync(join(OUTPUT, 'openapi.json'), JSON.stringify(doc, null, 2));
    const result = validate(doc);
    expect(result).toMatchObject({ valid: true, version: '3.1' });

    // The validator is not a rubber stamp: a parameter in Swagger 2's `body` place is refused.
    const broken = structuredClone(doc) as Doc;
    const get = broken.paths['/v1/notifications/{id}']!.get as { parameters: { in: string }[] };
    get.parameters[0]!.in = 'body';
    expect(validate(broken).valid).toBe(false);
  });

  it('carries the request schemas from the zod schemas the api validates with', () => {
    const doc = buildOpenApiDocument() as {
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[]; additionalProperties?: unknown }> };
    };
    const request = doc.components.schemas.NotificationRequest!;
    expect(request.required?.sort()).toEqual(['content', 'eventId', 'priority', 'recipient']);
    expect(request.additionalProperties).toBe(false);
    expect(request.properties?.priority).toMatchObject({ enum: ['urgent', 'reminder'] });
    const errorCodes = (doc.components.schemas.Error as { properties: { error: { properties: { code: { enum: string[] } } } } }).properties.error.properties
      .code.enum;
    expect(errorCodes).toContain('IDEMPOTENCY_CONFLICT');
  });

  it('shows only examples its own schemas accept', () => {
    const examples = Object.entries(EXAMPLES) as [SchemaName, unknown][];
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const [name, example] of examples) expect(NAMED_SCHEMAS[name].safeParse(example).error).toBeUndefined();
    const schemas = (buildOpenApiDocument() as { components: { schemas: Record<string, { examples?: unknown[] }> } }).components.schemas;
    expect(schemas.NotificationRequest!.examples).toEqual([EXAMPLES.NotificationRequest]);
  });

  it('serves the document at /openapi.json and Swagger UI from node_modules at /docs, without a key', async () => {
    const json = await request(app)
      .get('/openapi.json')
      .expect(200)
      .expect('content-type', /application\/json/);
    expect(json.body).toEqual(buildOpenApiDocument());

    const page = await request(app).get('/docs').expect(200).expect('content-type', /html/);
    expect(page.text).toContain('/docs/swagger-ui-bundle.js');
    expect(page.text).not.toMatch(/https?:\/\//); // no CDN: the machine may have no internet
    await request(app)
      .get('/docs/swagger-ui-bundle.js')
      .expect(200)
      .expect('content-type', /javascript/);
    await request(app).get('/docs/swagger-ui.css').expect(200);
    const init = await request(app).get('/docs/notify-init.js').expect(200);
    expect(init.text).toContain("url: '/openapi.json'");
  });
});
