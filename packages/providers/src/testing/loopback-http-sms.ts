import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpSmsProviderConfigInput } from '../http-sms/config';

/** One call as the loopback HTTP SMS provider received it. */
export interface ReceivedSmsCall {
  path: string;
  authorized: boolean;
  contentType: string | undefined;
  idempotencyKey: string | undefined;
  form: URLSearchParams;
  to: string;
  body: string;
}

/**
 * The number's last four digits pick the answer: 0429 a 429, 0503 a 503, 0211 an invalid number
 * (21211), 0610 an unsubscribed recipient (21610), 0000 read and never answered; anything else
 * 201 with a sid.
 */
export const HTTP_SMS_NUMBER_ANSWERS = { throttled: '0429', unavailable: '0503', invalid: '0211', unsubscribed: '0610', stall: '0000' } as const;

/**
 * An SMS provider in the Twilio-like REST shape on loopback (node:http): checks the path, Basic
 * auth (account:authToken) and the form (Body, the expected From), records every call and
 * answers by the destination number (HTTP_SMS_NUMBER_ANSWERS).
 */
export class LoopbackHttpSms {
  readonly calls: ReceivedSmsCall[] = [];
  /** Requests read and never answered (0000 numbers), until `close()` or `releaseStalled()`. */
  readonly stalled: ServerResponse[] = [];
  readonly account: string;
  readonly authToken: string;
  readonly from: string;
  readonly #server: Server;

  private constructor(options: { account: string; authToken: string; from: string }) {
    this.account = options.account;
    this.authToken = options.authToken;
    this.from = options.from;
    this.#server = createServer((req, res) => void this.#handle(req, res));
  }

  static async start(options: { account: string; authToken: string; from?: string }): Promise<LoopbackHttpSms> {
    const peer = new LoopbackHttpSms({ from: 'NOTIFY', ...options });
    peer.#server.listen(0, '127.0.0.1');
    await once(peer.#server, 'listening');
    return peer;
  }

  /** The provider's API root, as a provider entry's `baseUrl` names it. */
  get baseUrl(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/2010-04-01`;
  }

  /** An `http-sms` provider entry for this peer (name `sms-http`), with `overrides` on top. */
  providerConfig(overrides: Partial<HttpSmsProviderConfigInput> = {}): HttpSmsProviderConfigInput {
    return {
      kind: 'http-sms',
      name: 'sms-http',
      baseUrl: this.baseUrl,
      account: this.account,
      authToken: this.authToken,
      from: this.from,
      timeoutMs: 2_000,
      ...overrides,
    };
  }

  callsTo(number: string): ReceivedSmsCall[] {
    return this.calls.filter((call) => call.to === number);
  }

  releaseStalled(): void {
    for (const res of this.stalled.splice(0)) res.destroy();
  }

  async close(): Promise<void> {
    this.releaseStalled();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += (chunk as Buffer).toString('utf8');
    const form = new URLSearchParams(raw);
    const call: ReceivedSmsCall = {
      path: req.url ?? '',
      authorized: req.headers.authorization === `Basic ${Buffer.from(`${this.account}:${this.authToken}`).toString('base64')}`,
      contentType: req.headers['content-type'],
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      form,
      to: form.get('To') ?? '',
      body: form.get('Body') ?? '',
    };
    this.calls.push(call);
    const answer = (status: number, body: object): void => void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method !== 'POST' || call.path !== `/2010-04-01/Accounts/${this.account}/Messages.json`) return answer(404, { code: 20404, message: 'not found' });
    if (!call.authorized) return answer(401, { code: 20003, message: 'Authenticate', status: 401 });
    if (!call.body || form.get('From') !== this.from) return answer(400, { code: 21602, message: 'Message body is required.' });
    const ending = call.to.slice(-4);
    if (ending === HTTP_SMS_NUMBER_ANSWERS.invalid)
      return answer(400, { code: 21211, message: `The 'To' number ${call.to} is not a valid phone number.`, status: 400 });
    if (ending === HTTP_SMS_NUMBER_ANSWERS.unsubscribed)
      return answer(400, { code: 21610, message: `Attempt to send to unsubscribed recipient ${call.to}`, status: 400 });
    if (ending === HTTP_SMS_NUMBER_ANSWERS.throttled) return answer(429, { code: 20429, message: 'Too Many Requests' });
    if (ending === HTTP_SMS_NUMBER_ANSWERS.unavailable) return answer(503, { code: 20503, message: 'Service unavailable' });
    if (ending === HTTP_SMS_NUMBER_ANSWERS.stall) return void this.stalled.push(res); // read, never answered
    answer(201, { sid: `SM${String(this.calls.length).padStart(32, '0')}`, status: 'queued', to: call.to, body: call.body });
  }
}
