/** Input limits of the public API, defined once for the schemas and the README. */
export const LIMITS = {
  eventIdLength: 200,
  recipientIdLength: 200,
  titleLength: 200,
  bodyLength: 4_000,
  pushTokenLength: 4_096,
  batchSize: 1_000,
} as const;

/**
 * What a rendered message may weigh, per channel. The formatters enforce these and intake
 * validation checks the same rules (a request that can never be rendered is refused with 400),
 * so a poison message cannot reach a worker.
 */
/** Push providers (APNs, FCM) refuse payloads over 4 KB (the JSON of title, body and data). */
export const PUSH_PAYLOAD_LIMIT_BYTES = 4_096;
/** The most SMS parts a message may take; an explicit `overrides.sms.body` needing more is refused, not cut. */
export const SMS_SEGMENT_CAP = 10;
/** The JSON of an e-mail's subject and text (providers and our simulators cap request bodies). */
export const EMAIL_MESSAGE_LIMIT_BYTES = 48 * 1_024;

/** Identifiers: printable ASCII without spaces, so they log and hash unambiguously. */
export const ID_PATTERN = /^[A-Za-z0-9._:@\-/]+$/;

/** E.164 phone numbers: `+`, country code, up to 15 digits in all. */
export const PHONE_PATTERN = /^\+[1-9]\d{6,14}$/;
