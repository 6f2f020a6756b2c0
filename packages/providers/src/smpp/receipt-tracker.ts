import type { ParsedReceipt } from './receipt';

/** One message whose parts' receipts are gathered into one receipt. */
export interface TrackedMessage {
  /** The providerMessageId `send` answered: the first part's message_id, or a `pending:` id for an unknown outcome. */
  readonly id: string;
  /** Parts the message has; it is delivered when this many parts are. */
  readonly expected: number;
  readonly partIds: string[];
  readonly delivered: Set<string>;
  settled: boolean;
}

/**
 * Turns per-part receipts into one receipt per message, under the providerMessageId `send`
 * answered. A multi-part SMS is one message to the platform but every part gets its own receipt:
 * the message is delivered when every part is, undeliverable or expired as soon as one part is.
 * A message whose outcome was unknown (a submit_sm_resp came too late) gets its parts' ids as
 * late answers arrive, so a later receipt settles it. The newest `capacity` messages are
 * remembered; a receipt for a part not remembered (after a restart) passes through as it is, so
 * the first part's receipt still settles its message.
 */
export class ReceiptTracker {
  private readonly parts = new Map<string, TrackedMessage>();
  private readonly messages: TrackedMessage[] = [];
  private head = 0;

  constructor(private readonly capacity = 50_000) {}

  /** Remembers a message (nothing to remember for one accepted part whose id is the message's). */
  track(id: string, expected: number, partIds: string[]): TrackedMessage {
    const message: TrackedMessage = { id, expected, partIds: [], delivered: new Set(), settled: false };
    if (expected === 1 && partIds[0] === id) return message;
    for (const part of partIds) this.addPart(message, part);
    this.messages.push(message);
    if (this.messages.length - this.head > this.capacity) this.forget(this.messages[this.head++]);
    if (this.head > 1_024 && this.head * 2 > this.messages.length) {
      this.messages.splice(0, this.head);
      this.head = 0;
    }
    return message;
  }

  /** A part's message_id learned later (a late submit_sm_resp). */
  addPart(message: TrackedMessage, partId: string): void {
    if (message.settled) return;
    message.partIds.push(partId);
    this.parts.set(partId, message);
  }

  /** The receipt to report for a part's receipt, or undefined while the message waits for more parts (or already settled). */
  settle(receipt: ParsedReceipt): ParsedReceipt | undefined {
    const message = this.parts.get(receipt.providerMessageId);
    if (!message) return receipt;
    if (message.settled) return undefined;
    if (receipt.state === 'delivered') {
      message.delivered.add(receipt.providerMessageId);
      if (message.delivered.size < message.expected) return undefined;
    }
    return this.finish(message, receipt);
  }

  /** Settles a message as failed without a receipt (a part was refused late); undefined when it already settled. */
  fail(message: TrackedMessage, receipt: Omit<ParsedReceipt, 'providerMessageId'>): ParsedReceipt | undefined {
    if (message.settled) return undefined;
    return this.finish(message, { ...receipt, providerMessageId: message.id });
  }

  private finish(message: TrackedMessage, receipt: ParsedReceipt): ParsedReceipt {
    message.settled = true;
    this.forget(message);
    return { ...receipt, providerMessageId: message.id };
  }

  private forget(message: TrackedMessage | undefined): void {
    if (!message) return;
    for (const part of message.partIds) if (this.parts.get(part) === message) this.parts.delete(part);
  }
}
