import { componentSchemas } from './components';
import { errorResponseComponents, errorResponseRefs } from './error-responses';
import { OPERATIONS, type Operation, type QueryParameter } from './operations';

type JsonObject = Record<string, unknown>;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonObject) => ({ 'application/json': { schema } });

function pathParameters(path: string): JsonObject[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
}

const queryParameter = (q: QueryParameter) => ({ name: q.name, in: 'query', required: false, description: q.description, schema: q.schema });

/** `components.parameters`: the query parameters operations share, by their component name. */
function parameterComponents(operations: readonly Operation[]): Record<string, JsonObject> {
  const out: Record<string, JsonObject> = {};
  for (const q of operations.flatMap((op) => op.query ?? [])) {
    if (!q.component) continue;
    const parameter = queryParameter(q);
    if (out[q.component] && JSON.stringify(out[q.component]) !== JSON.stringify(parameter))
      throw new Error(`openapi: two different query parameters named ${q.component}`);
    out[q.component] = parameter;
  }
  return out;
}

/** Catalog errors as `$ref`s to `components.responses`, then the answers outside the catalog. */
function errorResponses(op: Operation): Record<string, JsonObject> {
  const out = errorResponseRefs(op);
  for (const [status, answer] of Object.entries(op.otherErrors ?? {})) {
    out[status] = { description: answer.description, content: json(ref(answer.schema)) };
  }
  return out;
}

function operationObject(op: Operation): JsonObject {
  const responses: Record<string, JsonObject> = {};
  for (const [status, answer] of Object.entries(op.ok)) {
    const content = answer.schema ? json(ref(answer.schema)) : answer.contentType ? { [answer.contentType]: {} } : undefined;
    const headers = answer.headers
      ? Object.fromEntries(Object.entries(answer.headers).map(([name, example]) => [name, { schema: { type: 'string' }, example }]))
      : undefined;
    responses[status] = { description: answer.description, ...(content ? { content } : {}), ...(headers ? { headers } : {}) };
  }
  Object.assign(responses, errorResponses(op));
  const query = (op.query ?? []).map((q) => (q.component ? { $ref: `#/components/parameters/${q.component}` } : queryParameter(q)));
  const parameters = [...pathParameters(op.path), ...query];
  return {
    operationId: `${op.method}${op.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.auth === 'none' ? { security: [] } : { security: [{ [op.auth === 'admin' ? 'adminKey' : 'apiKey']: [] }] }),
    ...(op.body ? { requestBody: { required: true, content: json(ref(op.body)) } } : {}),
    responses,
  };
}

/** The api described in OpenAPI 3.1: paths from OPERATIONS, schemas from the zod schemas. */
export function buildOpenApiDocument(options: { version?: string; serverUrl?: string } = {}): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  for (const op of OPERATIONS) (paths[op.path] ??= {})[op.method] = operationObject(op);
  return {
    openapi: '3.1.1',
    info: {
      title: 'notify api',
      version: options.version ?? '0.1.0',
      description:
        'Multi-channel notifications (push, SMS, e-mail) delivered exactly once per (event, recipient), and the tracking query under its 200 ms budget. Errors are `{"error":{"code","message","details?"}}`; the codes are the catalog in the README. Prometheus `/metrics` is served on a listener of its own (see docs/configuration.md), not here.',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: [
      { name: 'notifications', description: 'Intake and status.' },
      { name: 'recipients', description: 'Stored recipient profiles.' },
      { name: 'webhooks', description: 'Tenant webhook endpoints: signed notification events (docs/webhooks.md).' },
      { name: 'tracking', description: 'The tracking query (deadline budgets with cancellation).' },
      { name: 'operations', description: 'Health, queues, this document.' },
    ],
    paths,
    components: {
      schemas: componentSchemas(),
      responses: errorResponseComponents(OPERATIONS),
      parameters: parameterComponents(OPERATIONS),
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'A tenant API key (API_KEYS).' },
        adminKey: { type: 'http', scheme: 'bearer', description: 'The admin key (ADMIN_API_KEY).' },
      },
    },
  };
}
