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
/**
 * Web Push carries its payload in one RFC 8291 aes128gcm record of at most 4096 bytes (the size
 * every push service must accept, RFC 8030 §7.2).
 */
export const WEB_PUSH_RECORD_BYTES = 4_096;
/**
 * The push payload (the JSON of title, body and data) every push provider carries: the record's
 * 4096 bytes less the aes128gcm header (salt 16, record size 4, key id length 1, sender key 65),
 * the AEAD tag 16 and the padding delimiter 1. The formatter cuts bodies to it, intake refuses
 * what cannot fit it, and the Web Push adapter's own limit is this constant: a push accepted at
 * intake is never too large for any push provider (FCM and APNs take 4 KB, more than this).
 */
export const PUSH_PAYLOAD_LIMIT_BYTES = WEB_PUSH_RECORD_BYTES - 86 - 16 - 1;
/** The most SMS parts a message may take; an explicit `overrides.sms.body` needing more is refused, not cut. */
export const SMS_SEGMENT_CAP = 10;
/** The JSON of an e-mail's subject and text (providers and our simulators cap request bodies). */
export const EMAIL_MESSAGE_LIMIT_BYTES = 48 * 1_024;

/** Identifiers: printable ASCII without spaces, so they log and hash unambiguously. */
export const ID_PATTERN = /^[A-Za-z0-9._:@\-/]+$/;

/** E.164 phone numbers: `+`, country code, up to 15 digits in all. */
export const PHONE_PATTERN = /^\+[1-9]\d{6,14}$/;
