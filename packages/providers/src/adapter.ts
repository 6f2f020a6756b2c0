import type { AttemptOutcome, Channel, Priority, RenderedMessage } from '@notify/core';

/**
 * What a provider can promise, declared by its adapter. The pipeline reads these to decide
 * what an unknown outcome means: with an idempotency key a re-send is a reconciliation (the
 * provider answers the first result again); without one, a re-send may deliver twice, so an
 * unknown outcome is settled as `unconfirmed` unless the operator chose at-least-once.
 */
export interface ProviderCapabilities {
  /** The provider honours an idempotency key: a re-send with the same key never delivers twice. */
  idempotencyKey: boolean;
  /** A past send can be looked up by its key (so an unknown outcome can be settled by asking). */
  lookup: boolean;
  /** The provider reports later what became of a message (SMPP deliver_sm, HTTP SMS status callbacks, bounces). */
  receipts: boolean;
  /**
   * The provider answers the idempotency key it was given (`notify-<id>`) as its message id, so
   * that id names the notification by itself. Only such a provider's events may name a
   * notification that way: for any other, a `notify-` id is not one it issued. Default false.
   */
  echoesIdempotencyKey?: boolean;
  /** The largest payload the provider accepts, in bytes, after any encoding the protocol adds. */
  maxPayloadBytes?: number;
}

/** A Web Push subscription (W3C Push API `PushSubscription.toJSON()`), the push address of Web Push providers. */
export interface PushSubscriptionAddress {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** The address one send goes to: a phone number, an e-mail address, a device token, or a Web Push subscription. */
export type ProviderAddress = string | PushSubscriptionAddress;

export interface SendRequest {
  /** The notification's id: adapters derive stable identifiers from it (an e-mail Message-ID, an SMPP reference). */
  notificationId: string;
  /** The same for every call of one notification (`providerIdempotencyKey`); sent where the provider honours one. */
  idempotencyKey: string;
  to: ProviderAddress;
  message: RenderedMessage;
  priority: Priority;
}

/** One call's result. The field set is the pipeline's `ProviderCallResult`, so the worker records it unchanged. */
export interface SendResult {
  outcome: AttemptOutcome;
  /** A short machine-readable class: http-503, smtp-550, ECONNREFUSED, timeout, UNREGISTERED, ESME_RTHROTTLED... */
  errorClass?: string;
  /** A short human-readable reason; never an address, a secret or message content. */
  message?: string;
  durationMs: number;
  /** The provider recognised the idempotency key and did not deliver again. */
  replayed?: boolean;
  /** False when the request provably never left (connection refused before a byte was written): no budget spent. */
  sent: boolean;
  /** The provider's id of the message (SMTP queue id, SMPP message_id, FCM name...), for receipts and support. */
  providerMessageId?: string;
  /** A permanent answer that says the address itself is dead (SMTP 5.1.x, Web Push 404/410, FCM UNREGISTERED): suppress it. */
  addressInvalid?: boolean;
}

/** A provider's later report on a message it accepted (an SMPP delivery receipt, an HTTP SMS status callback). */
export interface ProviderReceipt {
  provider: string;
  providerMessageId: string;
  state: 'delivered' | 'undeliverable' | 'expired';
  /** When the provider says it happened (ms since the epoch). */
  at: number;
  /** The provider's own status text (e.g. SMPP `stat:DELIVRD err:000`), short. */
  detail?: string;
}

/**
 * One configured provider of one channel. Adapters never throw from `send` for a provider's
 * answer or a network failure: every such case is an outcome. They throw only for a programming
 * error (a message of another channel).
 */
export interface ProviderAdapter {
  /** The configured name, unique across channels (e.g. `sms-a`, `email-smtp`): breakers, metrics and attempts use it. */
  readonly name: string;
  /** The protocol: simulator, smtp, web-push, fcm, smpp, http-sms. */
  readonly kind: ProviderKind;
  readonly channel: Channel;
  readonly capabilities: ProviderCapabilities;
  send(request: SendRequest): Promise<SendResult>;
  /** Receipts the provider pushes over the adapter's own connection (SMPP); others arrive over HTTP. */
  onReceipt?(listener: (receipt: ProviderReceipt) => void): void;
  close(): Promise<void>;
}

export const PROVIDER_KINDS = ['simulator', 'smtp', 'web-push', 'fcm', 'smpp', 'http-sms'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** Milliseconds since `started` (a `performance.now()` reading), to 0.1 ms: every adapter's `durationMs`. */
export function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
