import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { z } from 'zod';
import { ERROR_CATALOG, type ErrorCode } from '@notify/core';

/**
 * What a slow or greedy client may hold on any of our HTTP servers. Node's own defaults
 * (headers 60 s, a whole request 300 s, no connection cap) let a client without a key keep a
 * socket for minutes by trickling bytes.
 */
export interface HttpServerLimits {
  /** Time to receive the request headers. @defaultValue 10 000 */
  headersTimeoutMs: number;
  /** Time to receive the whole request, body included (not the time to answer). @defaultValue 30 000 */
  requestTimeoutMs: number;
  /** An idle keep-alive socket is closed after this long. @defaultValue 5 000 */
  keepAliveTimeoutMs: number;
  /** Sockets beyond this many are refused at accept. @defaultValue 2 048 */
  maxConnections: number;
}

export const DEFAULT_HTTP_SERVER_LIMITS: HttpServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 2_048,
};

const ms = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);

/** The same four variables on every server (api, worker metrics, simulators); each app composes them. */
export const httpServerLimitsEnvShape = {
  HTTP_HEADERS_TIMEOUT_MS: ms(DEFAULT_HTTP_SERVER_LIMITS.headersTimeoutMs, 120_000).describe(
    "Time to receive a request's headers; past it the connection gets a 408 `REQUEST_TIMEOUT` and is closed.",
  ),
  HTTP_REQUEST_TIMEOUT_MS: ms(DEFAULT_HTTP_SERVER_LIMITS.requestTimeoutMs, 600_000).describe(
    'Time to receive a whole request, body included (not the time to answer). Must not be below the headers timeout.',
  ),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: ms(DEFAULT_HTTP_SERVER_LIMITS.keepAliveTimeoutMs, 120_000).describe('An idle keep-alive connection is closed after this.'),
  HTTP_MAX_CONNECTIONS: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(DEFAULT_HTTP_SERVER_LIMITS.maxConnections)
    .describe('Connections beyond this many are dropped at accept.'),
};

type LimitsEnv = { [K in keyof typeof httpServerLimitsEnvShape]: z.infer<(typeof httpServerLimitsEnvShape)[K]> };

/** Parsed env → limits; refuses headers that may take longer than the whole request. */
export function toHttpServerLimits(env: LimitsEnv): HttpServerLimits {
  if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS) {
    throw new Error('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)');
  }
  return {
    headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxConnections: env.HTTP_MAX_CONNECTIONS,
  };
}

/** Which catalog error a failure of node's HTTP parser (or its timeouts) is answered with. */
function clientErrorCode(error: NodeJS.ErrnoException): ErrorCode {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'HEADERS_TOO_LARGE';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'REQUEST_TIMEOUT';
  return 'VALIDATION_FAILED';
}

const CLIENT_ERROR_MESSAGES: Partial<Record<ErrorCode, string>> = {
  HEADERS_TOO_LARGE: 'the request headers exceed the size limit',
  REQUEST_TIMEOUT: 'the request was not received in time',
  VALIDATION_FAILED: 'malformed HTTP request',
};

/**
 * node answers parser errors (431, 400) and its timeouts (408) itself with an empty body; this
 * answers them in the documented `{ error: { code, message } }` shape, then closes the socket.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  const code = clientErrorCode(error);
  const status = ERROR_CATALOG[code].httpStatus;
  const body = JSON.stringify({ error: { code, message: CLIENT_ERROR_MESSAGES[code] ?? code } });
  socket.end(
    `HTTP/1.1 ${status} ${code}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * An HTTP server with `limits` applied: every server of the platform is made here, so none
 * can be started with node's permissive defaults. The caller owns `listen()`.
 */
export function createLimitedServer(handler: RequestListener, limits: HttpServerLimits): Server {
  // node checks the two receive timeouts on this interval (default 30 s): a 10 s limit would
  // really be up to 40 s. Check at a quarter of the smaller limit, at most once a second.
  const interval = Math.max(50, Math.min(1_000, Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 4)));
  const server = createServer({ connectionsCheckingInterval: interval }, handler);
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;
  server.on('clientError', answerClientError);
  return server;
}

/** Listens on `port`/`host` (0 = a free port) and resolves the bound port. */
export async function listenOn(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  return address && typeof address === 'object' ? address.port : port;
}
