import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Channel } from '@notify/core';
import type { ChannelBehaviour } from './channel-faults';
import type { Ledger } from './ledger';
import { stableUnit } from './rng';

export interface ProviderAppOptions {
  channel: Channel;
  ledger: Ledger;
  behaviour: () => ChannelBehaviour;
  random: () => number;
}

const BODY_LIMIT = 64 * 1_024;

/**
 * Every answer the provider gives, serialized once with its header list (the simulators share
 * the bench's cores). The body is a string: node then writes the head and the body as one
 * string, not a head and a buffer gathered by writev.
 */
function answers(channel: Channel) {
  const json = (status: number, body: object) => {
    const text = JSON.stringify(body);
    return { status, body: text, head: ['content-type', 'application/json', 'content-length', String(Buffer.byteLength(text))] };
  };
  return {
    delivered: json(202, { status: 'delivered', replayed: false }),
    replayed: json(200, { status: 'delivered', replayed: true }),
    permanent: json(422, { error: 'invalid-address', message: `the ${channel} address is not deliverable` }),
    transient: json(503, { error: 'unavailable', message: 'temporary provider failure' }),
    inProgress: json(409, { error: 'in-progress', message: 'a call with this key is still being processed' }),
    noKey: json(400, { error: 'bad-request', message: 'Idempotency-Key header is required' }),
    badBody: json(400, { error: 'bad-request', message: 'body must be {to, message}' }),
    tooLarge: json(413, { error: 'too-large', message: `body over ${BODY_LIMIT} bytes` }),
    notFound: json(404, { error: 'not-found', message: 'POST /v1/messages is the only route' }),
  };
}
type Answer = ReturnType<typeof answers>[keyof ReturnType<typeof answers>];

function send(res: ServerResponse, answer: Answer): void {
  res.writeHead(answer.status, answer.head);
  res.end(answer.body);
}

/**
 * The body as JSON, or undefined when it is not JSON, or 'large' over the limit. Read with
 * 'data'/'end' listeners: the request's async iterator costs more than the small body.
 */
function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let large = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) large = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (large) return resolve('large');
      try {
        resolve(JSON.parse((chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)).toString('utf8')));
      } catch {
        resolve(undefined);
      }
    });
    // A caller who hangs up mid-body: nothing to answer.
    req.on('error', () => resolve(undefined));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One simulated provider: `POST /v1/messages` with an `Idempotency-Key` header.
 * Permanent errors belong to the address (a stable hash under `permanentRate` always fails),
 * transient ones are drawn per call. A key already delivered on this channel is answered as
 * delivered again with `replayed: true` and no second delivery; a key whose call is still
 * running answers 409 (in progress). The provider finishes a call even if the caller hung up,
 * as a real one would: that is why a timeout is an unknown outcome.
 * A bare node handler with its answers serialized once: the simulators run on the same cores
 * as the platform they load, so they stay cheap (no framework, no per-call logging).
 */
export function createProviderApp(options: ProviderAppOptions): RequestListener {
  const { channel, ledger } = options;
  const inProgress = new Set<string>();
  const answer = answers(channel);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST' || req.url !== '/v1/messages') {
      req.resume();
      send(res, answer.notFound);
      return;
    }
    const key = req.headers['idempotency-key'];
    const body = await readJson(req);
    if (body === 'large') {
      send(res, answer.tooLarge);
      return;
    }
    const { to, message } = (body ?? {}) as { to?: unknown; message?: unknown };
    if (typeof key !== 'string' || key === '') {
      send(res, answer.noKey);
      return;
    }
    if (typeof to !== 'string' || to === '' || typeof message !== 'object' || message === null || Array.isArray(message)) {
      send(res, answer.badBody);
      return;
    }
    const behaviour = options.behaviour();
    if (inProgress.has(key)) {
      ledger.recordCall(channel, 'in-progress');
      send(res, answer.inProgress);
      return;
    }
    inProgress.add(key);
    try {
      await sleep(behaviour.latencyMs + (behaviour.mode === 'slow' ? behaviour.slowMs : 0));
      if (ledger.deliveredOn(key, channel)) {
        ledger.recordCall(channel, 'replayed');
        send(res, answer.replayed);
      } else if (stableUnit(`${channel}|${to}`) < behaviour.permanentRate) {
        ledger.recordCall(channel, 'permanent');
        send(res, answer.permanent);
      } else if (options.random() < behaviour.transientRate) {
        ledger.recordCall(channel, 'transient');
        send(res, answer.transient);
      } else {
        ledger.recordDelivery(key, channel);
        ledger.recordCall(channel, 'delivered');
        send(res, answer.delivered);
      }
    } finally {
      inProgress.delete(key);
    }
  }

  return (req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
}
