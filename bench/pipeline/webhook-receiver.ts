import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookReceiver {
  url: string;
  /** Requests answered so far. */
  received(): number;
  close(): Promise<void>;
}

/**
 * `--profile webhooks`: a tenant's endpoint on 127.0.0.1 that reads each body and answers 200,
 * no verification (its CPU is the bench process's own), registered through `POST /v1/webhooks`
 * for `notification.delivered`.
 */
export async function startWebhookEndpoint(apiUrl: string, apiKey: string): Promise<WebhookReceiver> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  const created = await fetch(`${apiUrl}/v1/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, events: ['notification.delivered'], description: 'bench:pipeline --profile webhooks' }),
  });
  if (created.status !== 201) {
    await close();
    throw new Error(`POST /v1/webhooks: ${created.status} ${await created.text()}`);
  }
  return { url, received: () => received, close };
}
