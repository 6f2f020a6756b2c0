/** @notify/client: the notify api as typed methods, with safe retries and webhook verification. */
export { createNotifyClient, type NotifyClient, type NotifyClientOptions, type CallOptions, type WaitOptions } from './client';
export { NotifyError, isNotifyError, type NotifyErrorCode, type FieldIssue } from './errors';
export { DEFAULT_RETRY, type RetryOptions } from './retry-policy';
export type { RetryInfo } from './transport';
export { verifyWebhook, type WebhookEvent, type WebhookHeaders, type VerifyOptions } from './verify-webhook';
export * from './types';
