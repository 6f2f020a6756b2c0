export interface EmailMessage {
  subject: string;
  text: string;
}

/** E-mail: a one-line subject (header injection is impossible once newlines are folded) and a text body. */
export function formatEmail(subject: string, body: string): EmailMessage {
  return { subject: subject.replace(/[\r\n]+/g, ' ').trim().slice(0, 200), text: body };
}
