import pino, { type Logger } from 'pino';

/**
 * Log fields that may carry secrets or personal data. Addresses (phone, e-mail, push token)
 * never reach the logs, whatever object they travel in.
 */
export const REDACTED_PATHS = [
  'authorization', 'headers.authorization', 'req.headers.authorization', '*.headers.authorization',
  'addresses', '*.addresses', '*.*.addresses', 'to', '*.to', 'phone', 'email', 'pushToken',
];

/** The one root logger of a process: JSON lines with the app name; children bind ids. */
export function createLogger(app: string, level: string, destination?: pino.DestinationStream): Logger {
  const options = { level, base: { app }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
