/** Input limits of the public API, defined once for the schemas and the README. */
export const LIMITS = {
  eventIdLength: 200,
  recipientIdLength: 200,
  titleLength: 200,
  bodyLength: 4_000,
  pushTokenLength: 4_096,
  batchSize: 1_000,
} as const;

/** Identifiers: printable ASCII without spaces, so they log and hash unambiguously. */
export const ID_PATTERN = /^[A-Za-z0-9._:@\-/]+$/;

/** E.164 phone numbers: `+`, country code, up to 15 digits in all. */
export const PHONE_PATTERN = /^\+[1-9]\d{6,14}$/;
