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
