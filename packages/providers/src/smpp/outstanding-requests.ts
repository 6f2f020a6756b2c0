import type { PDU } from 'smpp';
import type { RequestResult } from './session-options';

interface Pending {
  resolve: (result: RequestResult) => void;
  timer: NodeJS.Timeout;
}

/** How long an answer that came after its timeout is still handed to `onLate`. */
export const LATE_ANSWER_MS = 120_000;
const LATE_ANSWERS_KEPT = 10_000;

/** One request written (or about to be): its sequence number, what becomes of it, and `cancel` for a PDU that was not written after all. */
export interface OpenRequest {
  sequence: number;
  answer: Promise<RequestResult>;
  cancel(): void;
}

/**
 * The request PDUs of one session that wait for an answer, by sequence number: each is settled by
 * its response, its timeout or the loss of the session. A request that timed out may still be
 * answered (within LATE_ANSWER_MS): that answer goes to its `onLate`.
 */
export class OutstandingRequests {
  #sequence = 0;
  readonly #pending = new Map<number, Pending>();
  /** Requests that timed out and still wait for a late answer: sequence → handler. */
  readonly #late = new Map<number, { onLate: (pdu: PDU) => void; timer: NodeJS.Timeout }>();

  open(timeoutMs: number, onLate?: (pdu: PDU) => void): OpenRequest {
    this.#sequence = this.#sequence >= 0x7fffffff ? 1 : this.#sequence + 1;
    const sequence = this.#sequence;
    let settle: (result: RequestResult) => void = () => undefined;
    const answer = new Promise<RequestResult>((resolve) => (settle = resolve));
    const timer = setTimeout(() => {
      if (!this.#pending.delete(sequence)) return;
      if (onLate) this.#awaitLate(sequence, onLate);
      settle({ kind: 'timeout' });
    }, timeoutMs);
    this.#pending.set(sequence, { resolve: settle, timer });
    return {
      sequence,
      answer,
      cancel: () => {
        this.#pending.delete(sequence);
        clearTimeout(timer);
      },
    };
  }

  /** A response PDU: settles its request, or hands an answer that came after its timeout to the request's `onLate`. */
  settle(pdu: PDU): void {
    const entry = this.#pending.get(pdu.sequence_number);
    if (!entry) {
      // An answer after its timeout: the call already counted as unknown; its owner may still want it.
      const late = this.#late.get(pdu.sequence_number);
      if (late) {
        this.#late.delete(pdu.sequence_number);
        clearTimeout(late.timer);
        late.onLate(pdu);
      }
      return;
    }
    this.#pending.delete(pdu.sequence_number);
    clearTimeout(entry.timer);
    entry.resolve({ kind: 'response', pdu });
  }

  /** The session is gone: every waiting request is lost, and late answers can no longer come (answers never cross sessions). */
  failAll(): void {
    for (const { timer } of this.#late.values()) clearTimeout(timer);
    this.#late.clear();
    for (const [sequence, entry] of this.#pending) {
      this.#pending.delete(sequence);
      clearTimeout(entry.timer);
      entry.resolve({ kind: 'lost' });
    }
  }

  #awaitLate(sequence: number, onLate: (pdu: PDU) => void): void {
    if (this.#late.size >= LATE_ANSWERS_KEPT) return;
    const timer = setTimeout(() => this.#late.delete(sequence), LATE_ANSWER_MS);
    timer.unref();
    this.#late.set(sequence, { onLate, timer });
  }
}
