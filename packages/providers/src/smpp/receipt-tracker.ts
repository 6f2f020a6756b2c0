import type { ParsedReceipt } from './receipt';

interface MultipartMessage {
  /** The message's providerMessageId: the first part's message_id. */
  id: string;
  partIds: string[];
  waiting: Set<string>;
  settled: boolean;
}

/**
 * Turns per-part receipts into one receipt per message. A multi-part SMS is one message to the
 * platform (its providerMessageId is the first part's message_id) but every part gets its own
 * receipt: the message is delivered when every part is, and undeliverable or expired as soon as
 * one part is. The parts of messages sent by this process are remembered (the newest `capacity`
 * messages); a receipt for a part not remembered (after a restart) passes through as it is, so
 * the first part's receipt still settles the message.
 */
export class ReceiptTracker {
  private readonly parts = new Map<string, MultipartMessage>();
  private readonly messages: MultipartMessage[] = [];
  private head = 0;

  constructor(private readonly capacity = 50_000) {}

  /** Remembers the parts of a multi-part message (nothing to remember for one part). */
  track(partIds: string[]): void {
    const [id] = partIds;
    if (id === undefined || partIds.length < 2) return;
    const message: MultipartMessage = { id, partIds, waiting: new Set(partIds), settled: false };
    for (const part of partIds) this.parts.set(part, message);
    this.messages.push(message);
    if (this.messages.length - this.head > this.capacity) this.forget(this.messages[this.head++]);
    if (this.head > 1_024 && this.head * 2 > this.messages.length) {
      this.messages.splice(0, this.head);
      this.head = 0;
    }
  }

  /** The receipt to report for a part's receipt, or undefined while the message waits for more parts (or already settled). */
  settle(receipt: ParsedReceipt): ParsedReceipt | undefined {
    const message = this.parts.get(receipt.providerMessageId);
    if (!message) return receipt;
    if (message.settled) return undefined;
    message.waiting.delete(receipt.providerMessageId);
    if (receipt.state === 'delivered' && message.waiting.size > 0) return undefined;
    message.settled = true;
    this.forget(message);
    return { ...receipt, providerMessageId: message.id };
  }

  private forget(message: MultipartMessage | undefined): void {
    if (!message) return;
    for (const part of message.partIds) if (this.parts.get(part) === message) this.parts.delete(part);
  }
}
