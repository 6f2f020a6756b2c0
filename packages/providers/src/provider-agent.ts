import { Agent, type buildConnector } from 'undici';

/**
 * The keep-alive dispatcher of a provider that calls more than one origin (FCM's token and send
 * URLs, each subscription's push service): `connections` sockets per origin, the request timeout
 * bounding the answer's headers and its body. `connect`: the sockets' TLS options, if any.
 */
export function providerAgent(
  c: { connections: number; timeouts: { requestMs: number; connectMs: number } },
  connect: Partial<buildConnector.BuildOptions> = {},
): Agent {
  return new Agent({
    connections: c.connections,
    keepAliveTimeout: 30_000,
    headersTimeout: c.timeouts.requestMs,
    bodyTimeout: c.timeouts.requestMs,
    connect: { timeout: c.timeouts.connectMs, ...connect },
  });
}
