import { createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';
import { FCM_SCOPE, type FcmProviderConfigInput } from '../fcm/config';

/** What the loopback FCM answers for a device token (tokens not listed are delivered). */
export const FCM_TOKEN_BEHAVIOURS = {
  'tok-unregistered': { status: 404, status_: 'NOT_FOUND', errorCode: 'UNREGISTERED', message: 'Requested entity was not found.' },
  'tok-invalid': {
    status: 400,
    status_: 'INVALID_ARGUMENT',
    errorCode: 'INVALID_ARGUMENT',
    message: 'The registration token is not a valid FCM registration token',
  },
  'tok-unavailable': { status: 503, status_: 'UNAVAILABLE', errorCode: 'UNAVAILABLE', message: 'The service is currently unavailable.' },
  'tok-internal': { status: 500, status_: 'INTERNAL', errorCode: 'INTERNAL', message: 'Internal error encountered.' },
  'tok-quota': { status: 429, status_: 'RESOURCE_EXHAUSTED', errorCode: 'QUOTA_EXCEEDED', message: 'Quota exceeded for quota metric' },
  'tok-mismatch': { status: 403, status_: 'PERMISSION_DENIED', errorCode: 'SENDER_ID_MISMATCH', message: 'SenderId mismatch' },
  'tok-thirdparty': { status: 401, status_: 'UNAUTHENTICATED', errorCode: 'THIRD_PARTY_AUTH_ERROR', message: 'Auth error from APNS or Web Push Service' },
} as const;

/** The service account's identity: the assertion's issuer and the project messages are sent to. */
export interface FcmAccount {
  client_email: string;
  project_id: string;
}

const DEFAULT_ACCOUNT: FcmAccount = { client_email: 'notify-sender@notify-test-1.iam.gserviceaccount.com', project_id: 'notify-test-1' };

export interface ReceivedFcmMessage {
  project: string;
  message: {
    token: string;
    notification: { title: string; body: string };
    data?: Record<string, string>;
    android: { priority: string; ttl: string };
    apns: { headers: Record<string, string> };
  };
}

/**
 * Google's OAuth2 token endpoint and FCM HTTP v1 on one loopback HTTP server.
 * `POST /token`: a JWT bearer grant whose RS256 assertion verifies with the service account's
 * public key, `iss` = the client e-mail, `aud` = this token URL, the FCM scope, a lifetime of at
 * most an hour; answers an access token (`expiresIn` seconds) or invalid_grant.
 * `POST /v1/projects/{project}/messages:send`: the bearer must be an issued, unrevoked token
 * (else 401 UNAUTHENTICATED) and the message must have FCM's shape (else 400 INVALID_ARGUMENT);
 * then the token's behaviour answers (FCM_TOKEN_BEHAVIOURS; `tok-stall` never answers).
 */
export class LoopbackFcm {
  readonly received: ReceivedFcmMessage[] = [];
  readonly tokensIssued: string[] = [];
  /** Why requests were refused before the behaviour (assertion, bearer, shape). */
  readonly refused: string[] = [];
  tokenRequests = 0;
  sendRequests = 0;
  /** Lifetime of the next issued tokens, seconds. */
  expiresIn = 3_600;
  /** When set, the token endpoint answers this status (429, 503...) instead of a token. */
  tokenStatus: number | undefined;
  readonly #valid = new Set<string>();
  readonly #server: Server;
  readonly #now: () => number;

  /** The service account's private key (PKCS#8 PEM): the peer verifies assertions with its public half. */
  readonly privatePem: string;
  readonly account: FcmAccount;
  readonly #publicKey: KeyObject;

  private constructor(account: FcmAccount, now: () => number) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    this.#publicKey = createPublicKey(this.privatePem);
    this.account = account;
    this.#now = now;
    this.#server = createServer((req, res) => void this.#handle(req, res));
  }

  /** `now` is the clock the assertion's iat and exp are checked against (a test shares it with the adapter). */
  static async start(options: { account?: FcmAccount; now?: () => number } = {}): Promise<LoopbackFcm> {
    const peer = new LoopbackFcm(options.account ?? DEFAULT_ACCOUNT, options.now ?? Date.now);
    await new Promise<void>((resolve) => peer.#server.listen(0, '127.0.0.1', resolve));
    return peer;
  }

  /** The service-account JSON a provider entry names (its key verifies here), with `overrides` on top. */
  serviceAccountJson(overrides: Record<string, unknown> = {}): string {
    return JSON.stringify({
      type: 'service_account',
      ...this.account,
      private_key_id: 'k1',
      private_key: this.privatePem,
      token_uri: this.tokenUrl,
      ...overrides,
    });
  }

  /** An `fcm` provider entry for this peer (name `push-fcm`), with `overrides` on top. */
  providerConfig(overrides: Partial<FcmProviderConfigInput> = {}): FcmProviderConfigInput {
    return { kind: 'fcm', name: 'push-fcm', serviceAccount: this.serviceAccountJson(), apiBaseUrl: this.baseUrl, ...overrides };
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  get tokenUrl(): string {
    return `${this.baseUrl}/token`;
  }

  /** Every issued token stops working (as when Google revokes them): the next send gets 401. */
  revokeTokens(): void {
    this.#valid.clear();
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'POST' && req.url === '/token') return this.#token(text, json);
    const project = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(req.url ?? '')?.[1];
    if (req.method === 'POST' && project) return this.#send(project, req, text, json);
    json(404, { error: { code: 404, message: 'not found', status: 'NOT_FOUND' } });
  }

  async #token(text: string, json: (status: number, body: unknown) => void): Promise<void> {
    this.tokenRequests += 1;
    if (this.tokenStatus !== undefined) return json(this.tokenStatus, { error: 'unavailable' });
    const form = new URLSearchParams(text);
    const refuse = (reason: string) => {
      this.refused.push(reason);
      json(400, { error: 'invalid_grant', error_description: reason });
    };
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return refuse('grant_type must be the JWT bearer grant');
    try {
      const { payload, protectedHeader } = await jwtVerify(form.get('assertion') ?? '', this.#publicKey, {
        algorithms: ['RS256'],
        issuer: this.account.client_email,
        audience: this.tokenUrl,
        maxTokenAge: '1h',
        currentDate: new Date(this.#now()),
      });
      if (protectedHeader.typ !== 'JWT') return refuse('typ must be JWT');
      if (payload.scope !== FCM_SCOPE) return refuse('scope must be firebase.messaging');
      if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number' || payload.exp - payload.iat > 3_600) return refuse('lifetime over an hour');
    } catch (error) {
      return refuse(`Invalid JWT: ${(error as Error).message}`);
    }
    const token = `ya29.${randomUUID().replace(/-/g, '')}${randomUUID().replace(/-/g, '')}`;
    this.tokensIssued.push(token);
    this.#valid.add(token);
    json(200, { access_token: token, expires_in: this.expiresIn, token_type: 'Bearer' });
  }

  #send(project: string, req: IncomingMessage, text: string, json: (status: number, body: unknown) => void): void {
    this.sendRequests += 1;
    const fcmError = (status: number, statusText: string, message: string, errorCode?: string) =>
      json(status, {
        error: {
          code: status,
          message,
          status: statusText,
          ...(errorCode ? { details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] } : {}),
        },
      });
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!bearer || !this.#valid.has(bearer)) {
      this.refused.push('bearer');
      return fcmError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token.');
    }
    if (project !== this.account.project_id) return fcmError(403, 'PERMISSION_DENIED', 'Permission denied on project');
    const shape = shapeProblem(text);
    if (typeof shape === 'string') {
      this.refused.push(shape);
      return fcmError(400, 'INVALID_ARGUMENT', shape);
    }
    this.received.push({ project, message: shape });
    if (shape.token === 'tok-stall') return; // read, never answered until the peer closes
    const behaviour = FCM_TOKEN_BEHAVIOURS[shape.token as keyof typeof FCM_TOKEN_BEHAVIOURS];
    if (behaviour) return fcmError(behaviour.status, behaviour.status_, behaviour.message, behaviour.errorCode);
    json(200, { name: `projects/${project}/messages/0:${Date.now()}%${randomUUID().slice(0, 8)}` });
  }
}

/** The message, or what is wrong with its shape (FCM HTTP v1 `Message`). */
function shapeProblem(text: string): ReceivedFcmMessage['message'] | string {
  let body: { message?: Record<string, unknown> };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return 'Invalid JSON payload received.';
  }
  const message = body.message;
  if (!message || typeof message !== 'object') return 'message is required';
  const allowed = new Set(['token', 'notification', 'data', 'android', 'apns']);
  const unknown = Object.keys(message).find((key) => !allowed.has(key));
  if (unknown) return `Invalid JSON payload received. Unknown name "${unknown}" at 'message'`;
  if (typeof message.token !== 'string' || message.token === '') return 'message.token is required';
  const notification = message.notification as Record<string, unknown> | undefined;
  if (typeof notification?.title !== 'string' || typeof notification.body !== 'string') return 'message.notification needs title and body strings';
  if (message.data !== undefined && Object.values(message.data as object).some((value) => typeof value !== 'string'))
    return 'message.data values must be strings';
  const android = message.android as Record<string, unknown> | undefined;
  if (!['HIGH', 'NORMAL'].includes(android?.priority as string) || !/^\d+s$/.test(String(android?.ttl)))
    return 'message.android needs priority HIGH|NORMAL and ttl "<n>s"';
  const apns = (message.apns as { headers?: Record<string, unknown> } | undefined)?.headers;
  if (!['10', '5'].includes(apns?.['apns-priority'] as string) || !/^\d+$/.test(String(apns?.['apns-expiration'])))
    return 'message.apns.headers needs apns-priority 10|5 and apns-expiration';
  return message as unknown as ReceivedFcmMessage['message'];
}
