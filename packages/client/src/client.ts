import { NotifyError } from './errors';
import { retryPolicy, type RetryOptions } from './retry-policy';
import { send, type Call, type RetryInfo } from './transport';
import {
  TERMINAL_STATUSES,
  type Accepted,
  type BatchResult,
  type Cancellation,
  type Category,
  type CategoryList,
  type CategoryView,
  type EventCancellation,
  type ListQuery,
  type NotificationPage,
  type NotificationRequest,
  type NotificationView,
  type OptOutPreferences,
  type Preferences,
  type Recipient,
  type RecipientListQuery,
  type RecipientProfile,
  type Suppression,
  type SuppressionListQuery,
  type SuppressionPage,
  type SuppressionRequest,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEndpointCreated,
  type WebhookEndpointList,
  type WebhookEndpointRequest,
  type WebhookRetry,
} from './types';

export interface NotifyClientOptions {
  /** The api's base URL, e.g. `https://notify.example.com`. */
  baseUrl: string;
  /** A tenant API key (sent as `Authorization: Bearer`). */
  apiKey: string;
  /** `false`: one attempt only. @defaultValue 4 attempts within 30 s, backoff from 250 ms to 5 s with jitter */
  retry?: RetryOptions | false;
  /** Per attempt. @defaultValue 10000 */
  timeoutMs?: number;
  /** Told before each retry (for logs and metrics). */
  onRetry?: (info: RetryInfo) => void;
  /** @defaultValue globalThis.fetch */
  fetch?: typeof fetch;
}

export interface CallOptions {
  signal?: AbortSignal;
}

export interface WaitOptions extends CallOptions {
  /** @defaultValue 60000 */
  timeoutMs?: number;
  /** @defaultValue 500 */
  intervalMs?: number;
}

const segment = (value: string) => encodeURIComponent(value);

/** The api's routes as typed methods; every one goes through the same retry policy. */
export function createNotifyClient(options: NotifyClientOptions) {
  const transport = {
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    retry: retryPolicy(options.retry),
    timeoutMs: options.timeoutMs ?? 10_000,
    fetch: options.fetch ?? globalThis.fetch,
    onRetry: options.onRetry,
  };
  const call = async <T>(request: Call): Promise<T> => (await send(transport, request)).body as T;
  const read = <T>(path: string, query?: Call['query'], callOptions?: CallOptions) =>
    call<T>({ method: 'GET', path, query, idempotent: true, signal: callOptions?.signal });

  async function* pages<P extends { items: unknown[]; nextCursor?: string } = NotificationPage>(
    path: string,
    query: Record<string, string | number | undefined> | undefined,
    callOptions?: CallOptions,
  ): AsyncGenerator<P> {
    let cursor: string | undefined;
    do {
      const page = await read<P>(path, { ...query, cursor }, callOptions);
      yield page;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  }
  async function* items<P extends { items: unknown[] }>(source: AsyncGenerator<P>): AsyncGenerator<P['items'][number]> {
    for await (const page of source) yield* page.items as P['items'][number][];
  }
  const get = (id: string, callOptions?: CallOptions) => read<NotificationView>(`/v1/notifications/${segment(id)}`, undefined, callOptions);

  return {
    /** `POST /v1/notifications`; retried with the same body (the event id makes it idempotent). `duplicate` says a retry found it accepted. */
    send: (notification: NotificationRequest, callOptions?: CallOptions) =>
      call<Accepted>({ method: 'POST', path: '/v1/notifications', body: notification, idempotent: true, signal: callOptions?.signal }),
    /** `POST /v1/notifications/batch`: up to 1,000; per-item results in request order. */
    sendBatch: (notifications: readonly NotificationRequest[], callOptions?: CallOptions) =>
      call<BatchResult>({ method: 'POST', path: '/v1/notifications/batch', body: { notifications }, idempotent: true, signal: callOptions?.signal }),
    /** `GET /v1/notifications/{id}`: status, attempts and skips; never addresses or content. */
    get,
    /** Polls `get` until the notification reaches a terminal status; a `TIMEOUT` NotifyError after `timeoutMs`. */
    async waitForTerminal(id: string, wait: WaitOptions = {}): Promise<NotificationView> {
      const deadline = Date.now() + (wait.timeoutMs ?? 60_000);
      for (;;) {
        const view = await get(id, wait);
        if (TERMINAL_STATUSES.includes(view.status)) return view;
        if (Date.now() >= deadline) throw new NotifyError({ code: 'TIMEOUT', message: `${id} is still ${view.status}`, status: 0 });
        await new Promise((resolve) => setTimeout(resolve, wait.intervalMs ?? 500));
      }
    },
    /** `GET /v1/notifications`: every finished notification matching `query`, newest first, page after page. */
    list: (query?: ListQuery, callOptions?: CallOptions) => items(pages('/v1/notifications', query, callOptions)),
    /** The same search, one page at a time (`nextCursor` absent on the last). */
    listPages: (query?: ListQuery, callOptions?: CallOptions) => pages('/v1/notifications', query, callOptions),
    /** `DELETE /v1/notifications/{id}`: cancels one notification that has not been delivered yet. */
    cancel: (id: string, callOptions?: CallOptions) =>
      call<Cancellation>({ method: 'DELETE', path: `/v1/notifications/${segment(id)}`, idempotent: true, signal: callOptions?.signal }),
    /** `DELETE /v1/notifications?eventId=`: cancels every notification of one event. */
    cancelEvent: (eventId: string, callOptions?: CallOptions) =>
      call<EventCancellation>({ method: 'DELETE', path: '/v1/notifications', query: { eventId }, idempotent: true, signal: callOptions?.signal }),
    recipients: {
      /** `PUT /v1/recipients/{id}`: store or replace a profile (lifts its channel suppressions). */
      put: (id: string, profile: RecipientProfile, callOptions?: CallOptions) =>
        call<Recipient>({ method: 'PUT', path: `/v1/recipients/${segment(id)}`, body: profile, idempotent: true, signal: callOptions?.signal }),
      get: (id: string, callOptions?: CallOptions) => read<Recipient>(`/v1/recipients/${segment(id)}`, undefined, callOptions),
      delete: (id: string, callOptions?: CallOptions) =>
        call<undefined>({ method: 'DELETE', path: `/v1/recipients/${segment(id)}`, idempotent: true, signal: callOptions?.signal }),
      /** `GET /v1/recipients/{id}/notifications`: what was sent to one recipient id, newest first. */
      notifications: (id: string, query?: RecipientListQuery, callOptions?: CallOptions) =>
        items(pages(`/v1/recipients/${segment(id)}/notifications`, query, callOptions)),
      preferences: {
        /** `PUT /v1/recipients/{id}/preferences`: per channel and per category × channel, `false` opts out (checked again at every step). */
        put: (id: string, preferences: OptOutPreferences, callOptions?: CallOptions) =>
          call<Preferences>({
            method: 'PUT',
            path: `/v1/recipients/${segment(id)}/preferences`,
            body: preferences,
            idempotent: true,
            signal: callOptions?.signal,
          }),
        get: (id: string, callOptions?: CallOptions) => read<Preferences>(`/v1/recipients/${segment(id)}/preferences`, undefined, callOptions),
      },
    },
    categories: {
      /** `PUT /v1/categories/{id}`: create or replace; `required` ones ignore opt-outs. */
      put: (id: string, category: Category, callOptions?: CallOptions) =>
        call<CategoryView>({ method: 'PUT', path: `/v1/categories/${segment(id)}`, body: category, idempotent: true, signal: callOptions?.signal }),
      get: (id: string, callOptions?: CallOptions) => read<CategoryView>(`/v1/categories/${segment(id)}`, undefined, callOptions),
      list: (callOptions?: CallOptions) => read<CategoryList>('/v1/categories', undefined, callOptions),
      delete: (id: string, callOptions?: CallOptions) =>
        call<undefined>({ method: 'DELETE', path: `/v1/categories/${segment(id)}`, idempotent: true, signal: callOptions?.signal }),
    },
    suppressions: {
      /** `GET /v1/suppressions`: every suppressed (recipient, channel) of this tenant, with its reason and expiry, page after page. */
      list: (query?: SuppressionListQuery, callOptions?: CallOptions) => items(pages<SuppressionPage>('/v1/suppressions', query, callOptions)),
      /** `POST /v1/suppressions`: suppress a recipient's channel (again: a new reason and expiry). */
      add: (suppression: SuppressionRequest, callOptions?: CallOptions) =>
        call<Suppression>({ method: 'POST', path: '/v1/suppressions', body: suppression, idempotent: true, signal: callOptions?.signal }),
      /** `DELETE /v1/suppressions/{recipientId}/{channel}`: lift one before it expires. */
      remove: (recipientId: string, channel: Suppression['channel'], callOptions?: CallOptions) =>
        call<undefined>({
          method: 'DELETE',
          path: `/v1/suppressions/${segment(recipientId)}/${segment(channel)}`,
          idempotent: true,
          signal: callOptions?.signal,
        }),
    },
    webhooks: {
      /** `POST /v1/webhooks`: the signing secret is in this answer only. Not retried once it may have reached the api. */
      create: (endpoint: WebhookEndpointRequest, callOptions?: CallOptions) =>
        call<WebhookEndpointCreated>({ method: 'POST', path: '/v1/webhooks', body: endpoint, idempotent: false, signal: callOptions?.signal }),
      list: (callOptions?: CallOptions) => read<WebhookEndpointList>('/v1/webhooks', undefined, callOptions),
      get: (id: string, callOptions?: CallOptions) => read<WebhookEndpoint>(`/v1/webhooks/${segment(id)}`, undefined, callOptions),
      delete: (id: string, callOptions?: CallOptions) =>
        call<undefined>({ method: 'DELETE', path: `/v1/webhooks/${segment(id)}`, idempotent: true, signal: callOptions?.signal }),
      /** Both the new and the previous secret sign for 24 h. */
      rotateSecret: (id: string, callOptions?: CallOptions) =>
        call<WebhookEndpointCreated>({ method: 'POST', path: `/v1/webhooks/${segment(id)}/rotate-secret`, idempotent: false, signal: callOptions?.signal }),
      deliveries: (id: string, callOptions?: CallOptions) => read<WebhookDeliveryList>(`/v1/webhooks/${segment(id)}/deliveries`, undefined, callOptions),
      retryDelivery: (id: string, eventId: string, callOptions?: CallOptions) =>
        call<WebhookRetry>({
          method: 'POST',
          path: `/v1/webhooks/${segment(id)}/deliveries/${segment(eventId)}/retry`,
          idempotent: true,
          signal: callOptions?.signal,
        }),
    },
  };
}

export type NotifyClient = ReturnType<typeof createNotifyClient>;
