import type { Server, ServerResponse } from 'node:http';
import { createLimitedServer, listenOn, type HttpServerLimits } from './http-server-limits';

/** What the listener needs of a prom-client Registry (structural, so runtime needs no prom-client). */
export interface MetricsSource {
  readonly contentType: string;
  metrics(): Promise<string>;
}

export interface MetricsListenerOptions {
  registry: MetricsSource;
  host: string;
  /** 0 picks a free port. */
  port: number;
  limits: HttpServerLimits;
  /** /readyz: 200 when ready, 503 otherwise, with this body. */
  readiness(): { ready: boolean; body: Record<string, unknown> };
  /** Extra fields of /healthz. */
  health?: Record<string, unknown>;
}

export interface MetricsListener {
  readonly server: Server;
  /** `http://<host>:<port>/metrics` */
  readonly url: string;
  close(): Promise<void>;
}

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
};

/**
 * The operators' port of a process: /metrics, /healthz, /readyz, apart from any public port
 * (loopback by default), with the same HTTP limits as every other server.
 */
export async function startMetricsListener(options: MetricsListenerOptions): Promise<MetricsListener> {
  const server = createLimitedServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '').split('?')[0];
      if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
        res.setHeader('content-type', options.registry.contentType);
        res.end(await options.registry.metrics());
      } else if (path === '/healthz') {
        sendJson(res, 200, { status: 'ok', ...options.health });
      } else if (path === '/readyz') {
        const { ready, body } = options.readiness();
        sendJson(res, ready ? 200 : 503, body);
      } else {
        sendJson(res, 404, { error: { code: 'NOT_FOUND', message: 'this listener serves /metrics, /healthz and /readyz' } });
      }
    })().catch(() => {
      if (!res.headersSent) sendJson(res, 500, { error: { code: 'INTERNAL', message: 'metrics collection failed' } });
      else res.destroy();
    });
  }, options.limits);
  const port = await listenOn(server, options.port, options.host);
  return {
    server,
    url: `http://${options.host}:${port}/metrics`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
