import { z } from 'zod';
import { connectionsSchema, timeoutMsSchema, providerEntryFields } from '../config-fields';

/**
 * Error codes of the REST shape (Twilio's numbering, which most HTTP SMS providers copy or map)
 * that say the recipient's number itself is dead: invalid or unreachable number, not a mobile,
 * landline, unsubscribed (STOP). They feed suppression.
 */
export const DEFAULT_INVALID_ADDRESS_CODES = [21211, 21214, 21217, 21401, 21407, 21421, 21610, 21614] as const;

/**
 * One SMS provider over HTTP in the widely used REST shape (Twilio-like): a form POST of
 * To/From/Body (and StatusCallback) with Basic auth to `<baseUrl><path>`, answered with JSON
 * carrying the message id (`sid`). `authToken` is a secret: never logged, never echoed (errors
 * name the field only).
 */
export const httpSmsProviderConfigSchema = z.strictObject({
  ...providerEntryFields('http-sms', 'sms'),
  /** e.g. `https://api.twilio.com/2010-04-01`; a path prefix is kept. */
  baseUrl: z.url({ protocol: /^https?$/ }),
  /** Appended to baseUrl; `{account}` is replaced by the account (URL-encoded). */
  path: z.string().startsWith('/').default('/Accounts/{account}/Messages.json'),
  /** The account id in the path (Twilio's Account SID). */
  account: z.string().min(1).max(200),
  /** Basic auth user: defaults to the account (Twilio also takes an API key SID here). */
  username: z.string().min(1).max(200).optional(),
  /** Basic auth password (the auth token or API key secret). */
  authToken: z.string().min(1).max(500),
  /** The sender: a number in E.164, a short code or an alphanumeric sender id. */
  from: z.string().min(1).max(32),
  /** Where the provider posts delivery receipts (sent as `StatusCallback`); the inbound side is the platform's receipts endpoint. */
  statusCallbackUrl: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * A header the provider documents as an idempotency key (e.g. `Idempotency-Key`): when set,
   * every call carries the notification's key in it and the adapter declares idempotencyKey: true.
   * Leave unset for providers that do not honour one (Twilio's Messages API does not).
   */
  idempotencyHeader: z
    .string()
    .regex(/^[A-Za-z0-9-]{1,64}$/)
    .optional(),
  invalidAddressCodes: z.array(z.number().int()).default([...DEFAULT_INVALID_ADDRESS_CODES]),
  connections: connectionsSchema.default(16),
  timeoutMs: timeoutMsSchema.default(5_000),
});
export type HttpSmsProviderConfig = z.infer<typeof httpSmsProviderConfigSchema>;
export type HttpSmsProviderConfigInput = z.input<typeof httpSmsProviderConfigSchema>;
