import pino, { type Logger } from 'pino';

/** `name`, and `name` under one to `depth` levels of any object (or array index). */
function atAnyDepth(name: string, depth: number): string[] {
  return Array.from({ length: depth + 1 }, (_, level) => [...Array<string>(level).fill('*'), name].join('.'));
}

/**
 * Log fields that may carry secrets or personal data. Addresses (phone, e-mail, push token)
 * never reach the logs, whatever object they travel in. They are found by where they occur —
 * an `addresses` object, a provider call's `to`, a `recipient`'s address fields — not by the
 * bare key `email`, which also names a channel (`{ providers: { email: <url> } }` is not an
 * address). `phone` and `pushToken` name nothing but addresses, so they go at any depth.
 * pino's redaction has no "any depth" wildcard, so each path is listed at every depth a log
 * call realistically nests it: a batch body puts addresses at
 * `body.notifications.<i>.recipient.addresses` (four levels down).
 */
export const REDACTED_PATHS = [
  'authorization',
  ...['authorization', 'Authorization'].flatMap((h) => atAnyDepth(`headers.${h}`, 2)),
  ...atAnyDepth('addresses', 4),
  ...atAnyDepth('to', 3),
  ...['phone', 'email', 'pushToken'].flatMap((name) => atAnyDepth(`recipient.${name}`, 3)),
  ...['phone', 'pushToken'].flatMap((name) => atAnyDepth(name, 2)),
  // ioredis attaches `command: { name, args }` to a Redis error; the intake script's arguments
  // hold the addresses and the content. `err.command.args` and `err.cause.command.args`.
  ...atAnyDepth('command.args', 2),
];

/** The one root logger of a process: JSON lines with the app name; children bind ids. */
export function createLogger(app: string, level: string, destination?: pino.DestinationStream): Logger {
  const options = { level, base: { app }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
