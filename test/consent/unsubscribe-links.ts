import type { ReceivedMail } from '@notify/providers/testing';

/** The value of header `name` in a received message's raw header block (folded lines joined), or undefined. */
export function rawHeader(mail: ReceivedMail, name: string): string | undefined {
  const head = mail.raw.toString('utf8').split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** The https?://…/u/TOKEN URL of a List-Unsubscribe header value `<url>`. */
export function unsubscribeUrlOf(header: string | undefined): URL {
  const match = /^<(https?:\/\/[^>]+\/u\/[^>]+)>$/.exec(header ?? '');
  if (!match) throw new Error(`not a one-click List-Unsubscribe header: ${header}`);
  return new URL(match[1]!);
}
