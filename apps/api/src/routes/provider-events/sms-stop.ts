import { z } from 'zod';
import { PHONE_PATTERN, parseOrThrow } from '@notify/core';

/** The words carriers treat as an opt-out reply (CTIA's list), alone in the message. */
const STOP_WORDS = /^\s*(stop|stopall|unsubscribe|cancel|end|quit)\s*$/i;

/** (d) An inbound SMS in the HTTP SMS callback shape (Twilio-like form fields: no MessageStatus, a Body). */
const inboundSmsSchema = z.object({
  MessageSid: z.string().min(1).max(100),
  From: z.string().regex(PHONE_PATTERN, 'must be an E.164 phone number'),
  Body: z.string().max(1_600),
});

/** Whether a form body is an inbound message rather than a status callback. */
export function isInboundSms(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'Body' in body && !('MessageStatus' in body);
}

/** The sender's number when the inbound message is a STOP; undefined for any other text. Throws a 400 naming the field. */
export function stopSender(body: unknown): string | undefined {
  const message = parseOrThrow(inboundSmsSchema, body);
  return STOP_WORDS.test(message.Body) ? message.From : undefined;
}
