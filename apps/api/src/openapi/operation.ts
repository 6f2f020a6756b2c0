import type { ErrorCode } from '@notify/core';
import type { SchemaName } from './components';

/**
 * One route of the api as the OpenAPI document describes it (the table is OPERATIONS in
 * operations.ts).
 */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI form: `{id}`, not `:id`. */
  path: string;
  tag: 'notifications' | 'recipients' | 'webhooks' | 'tracking' | 'operations';
  summary: string;
  description?: string;
  auth: 'tenant' | 'admin' | 'none';
  body?: SchemaName;
  /** Query parameters (all optional). */
  query?: readonly QueryParameter[];
  /** Answers outside the JSON error catalog (successes, redirects, HTML pages): status → schema or content type. */
  ok: Record<number, { description: string; schema?: SchemaName; contentType?: string; headers?: Record<string, string> }>;
  /** Catalog errors this route can answer with (401 is added for authenticated routes). */
  errors?: ErrorCode[];
  /** The tenant's intake limits apply: its answers carry RateLimit-Policy and RateLimit (its 429s, with Retry-After, from their codes: docs/tenants.md). */
  tenantLimited?: boolean;
  /** Answers outside the catalog (the tracking query's budget errors). */
  otherErrors?: Record<number, { description: string; schema: SchemaName }>;
}

export interface QueryParameter {
  name: string;
  description: string;
  schema: Record<string, unknown>;
  /** Written once under `components.parameters` by this name and referenced (a parameter several routes share). */
  component?: string;
}

/** Errors of a route that reads a JSON body. */
export const JSON_BODY_ERRORS: ErrorCode[] = ['VALIDATION_FAILED', 'MALFORMED_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];
/** Errors of a route with an id in its path. */
export const ID_PARAM_ERRORS: ErrorCode[] = ['VALIDATION_FAILED', 'NOT_FOUND', 'INTERNAL'];

/** The headers of an answer under the tenant's limits (draft-ietf-httpapi-ratelimit-headers), with examples. */
export const RATE_LIMIT_HEADERS: Record<string, string> = {
  'RateLimit-Policy': '"rate";q=200;w=2, "daily";q=1000000;w=86400',
  RateLimit: '"rate";r=42;t=1, "daily";r=912345;t=40210',
};
/** What a refusal by the tenant's limits adds: seconds until the bucket holds one more, or until 00:00 UTC. */
export const LIMIT_REFUSAL_HEADERS: Record<string, string> = { 'Retry-After': '1', ...RATE_LIMIT_HEADERS };

/** OpenAPI header objects (string values) from header name → example. */
export const headerObjects = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, example]) => [name, { schema: { type: 'string' }, example }]));
