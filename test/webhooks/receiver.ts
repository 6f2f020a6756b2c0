import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedRequest {
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** How the receiver answers a request: a status, or `destroy` (the connection is reset, no answer). */
export type Answer = number | 'destroy';

/**
 * A webhook receiver on loopback: records every request, answers what `answer` says (200 by
 * default), and, given secrets, verifies each signature with the Standard Webhooks verifier
 * (the `standardwebhooks` package) before answering: a bad signature is counted and answered 400.
 */
export async function startReceiver(options: { secrets?: () => string[]; answer?: (req: ReceivedRequest, n: number) => Answer } = {}) {
  const requests: ReceivedRequest[] = [];
  const verified: ReceivedRequest[] = [];
  const badSignatures: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: ReceivedRequest = {
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      requests.push(received);
      const answer = options.answer ? options.answer(received, requests.length) : 200;
      if (answer === 'destroy') {
        req.socket.destroy();
        return;
      }
      if (answer >= 200 && answer < 300 && options.secrets) {
        const ok = options.secrets().some((secret) => {
          try {
            new Webhook(secret).verify(received.body, received.headers);
            return true;
          } catch {
            return false;
          }
        });
        if (!ok) {
          badSignatures.push(received.headers['webhook-id'] ?? '?');
          res.writeHead(400).end();
          return;
        }
        verified.push(received);
      }
      res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    verified,
    badSignatures,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
