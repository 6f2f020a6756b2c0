import { Agent } from 'undici';

export interface KeepAliveAgentOptions {
  /** Sockets per origin. @defaultValue 64 */
  connections?: number;
  /** How long an idle socket stays open. @defaultValue 10_000 */
  keepAliveTimeoutMs?: number;
}

/**
 * One keep-alive agent per client process: a healthy call reuses a socket instead of paying
 * a TCP handshake out of its few milliseconds of budget. (An aborted HTTP/1.1 request costs
 * its socket: closing it is how the dependency learns the caller gave up.)
 */
export function createKeepAliveAgent(options: KeepAliveAgentOptions = {}): Agent {
  return new Agent({
    connections: options.connections ?? 64,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
    pipelining: 1,
  });
}
