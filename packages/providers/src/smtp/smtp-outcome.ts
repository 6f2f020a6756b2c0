import type { SendResult } from '../adapter';
import { NOT_SENT_CODES, scrubProviderText } from '../network-failure';

/** What nodemailer puts on a failed send (see nodemailer's smtp-connection `_formatError`). */
export interface NodemailerErrorShape {
  /** ECONNECTION, ETIMEDOUT, ESOCKET, EDNS, ETLS, EAUTH, EENVELOPE, EMESSAGE, EPROTOCOL... */
  code?: string;
  /** The system error under it (ECONNREFUSED under ESOCKET). */
  originalCode?: string;
  /** The SMTP reply code of the reply that failed the send. */
  responseCode?: number;
  /** The full reply line ("550 5.1.1 <...>: Recipient address rejected"). */
  response?: string;
  /** The command in flight: CONN (any timeout or socket error), EHLO, AUTH PLAIN, MAIL FROM, RCPT TO, DATA... */
  command?: string;
  /** For ETIMEDOUT: CONNECT_TIMEOUT, GREETING_TIMEOUT, UPGRADE_TIMEOUT (setup) or SOCKET_TIMEOUT (inactivity). */
  timeoutType?: string;
}

/** Errors that stop a send before the session could carry a message: nothing left, no budget spent. */
const SETUP_CODES = new Set(['EDNS', 'ETLS', 'EAUTH', 'ENOAUTH', 'EREQUIRETLS', 'ECONFIG', 'EPROXY']);
const SETUP_TIMEOUTS = new Set(['CONNECT_TIMEOUT', 'GREETING_TIMEOUT', 'UPGRADE_TIMEOUT']);
/** Certificate verification failures (node's codes, under nodemailer's ESOCKET): the TLS session never carried a byte of the message. */
const CERTIFICATE_FAILURE = /CERT|SELF_SIGNED|^ERR_TLS_|^ERR_SSL_|^UNABLE_TO_/;

/** The enhanced status code (RFC 3463) of a reply: `5.1.1`, or undefined. */
export function enhancedStatus(response: string | undefined): string | undefined {
  return response ? /^\d{3}[ -]([245]\.\d{1,3}\.\d{1,3})\b/.exec(response)?.[1] : undefined;
}

/**
 * A reply that says the recipient's address itself is dead (feeds suppression): an enhanced
 * status of class 5.1 (bad destination mailbox or system, RFC 3463), except 5.1.7 and 5.1.8
 * (the sender's address); without an enhanced status, 550/551/553 to RCPT TO.
 */
export function isAddressInvalid(responseCode: number, response: string | undefined, command: string | undefined): boolean {
  if (responseCode < 500) return false;
  const enhanced = enhancedStatus(response);
  if (enhanced) return enhanced.startsWith('5.1.') && enhanced !== '5.1.7' && enhanced !== '5.1.8';
  return command === 'RCPT TO' && (responseCode === 550 || responseCode === 551 || responseCode === 553);
}

/**
 * Classifies a failed SMTP send.
 * - A reply: 4yz transient, 5yz permanent (addressInvalid for address errors). Authentication
 *   refused (EAUTH, 535) is transient and not sent: it is the provider's configuration, never the
 *   recipient's fault, and it must open the provider's breaker instead of failing every address.
 * - No reply: once the whole message and DATA's final dot were handed to the socket
 *   (`dataComplete`), the server may have accepted it: unknown, sent. Before that, nothing can
 *   have been delivered: transient; and not sent when the session never got as far as carrying a
 *   message (connection refused, DNS, connect/greeting/TLS timeouts).
 * The message is built here, never nodemailer's (which can carry the reply's address).
 */
export function classifySmtpFailure(error: unknown, dataComplete: boolean, durationMs: number): SendResult {
  const err = (error ?? {}) as NodemailerErrorShape;
  const code = typeof err.code === 'string' ? err.code : 'error';
  const phase = typeof err.command === 'string' ? err.command : 'CONN';
  if (typeof err.responseCode === 'number' && err.responseCode >= 400) {
    const reply = err.responseCode;
    const text = typeof err.response === 'string' ? scrubProviderText(err.response, 160) : String(reply);
    if (code === 'EAUTH') {
      return { outcome: 'transient', errorClass: `smtp-${reply}`, message: `authentication refused: ${text}`, durationMs, sent: false };
    }
    const permanent = reply >= 500;
    return {
      outcome: permanent ? 'permanent' : 'transient',
      errorClass: `smtp-${reply}`,
      message: `${phase}: ${text}`,
      durationMs,
      sent: true,
      ...(permanent && isAddressInvalid(reply, err.response, phase) ? { addressInvalid: true } : {}),
    };
  }
  const underlying = typeof err.originalCode === 'string' ? err.originalCode : code;
  if (dataComplete) {
    const what = code === 'ETIMEDOUT' ? 'no answer after the end of DATA' : `the connection failed after the end of DATA (${underlying})`;
    return { outcome: 'unknown', errorClass: code === 'ETIMEDOUT' ? 'timeout' : underlying, message: what, durationMs, sent: true };
  }
  const notSent =
    NOT_SENT_CODES.has(underlying) ||
    SETUP_CODES.has(code) ||
    CERTIFICATE_FAILURE.test(underlying) ||
    (code === 'ETIMEDOUT' && SETUP_TIMEOUTS.has(err.timeoutType ?? ''));
  if (code === 'ETIMEDOUT') {
    const what =
      err.timeoutType === 'SOCKET_TIMEOUT' ? 'no answer before the message was sent' : `${(err.timeoutType ?? 'timeout').toLowerCase().replace('_', ' ')}`;
    return { outcome: 'transient', errorClass: 'timeout', message: what, durationMs, sent: !notSent };
  }
  return {
    outcome: 'transient',
    errorClass: underlying,
    message: `${phase}: the session failed before the message was sent (${underlying})`,
    durationMs,
    sent: !notSent,
  };
}
