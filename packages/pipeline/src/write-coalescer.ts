import type { RedisClient } from '@notify/runtime';

/** Marks "this event-loop turn writes to Redis": its writes leave as one socket write. */
export type WriteCoalescer = () => void;

/** A coalescer that does nothing (a Cluster, tests, or coalescing off). */
export const NO_COALESCING: WriteCoalescer = () => undefined;

interface Corkable {
  writable: boolean;
  cork(): void;
  uncork(): void;
}

/**
 * Joins the socket writes of one event-loop turn on a single-node Redis connection: the first
 * call in a turn corks the connection's socket and a setImmediate uncorks it, so every command
 * written in between (ours, and BullMQ's or the webhook hook's on the same connection) leaves
 * in one `writev` instead of one write syscall each (a loopback send does the TCP work on the
 * sender's CPU, and Redis then reads and answers them in one go). Only the syscalls are joined:
 * the bytes, their order and every command's reply are exactly as without it; a command waits
 * at most until the end of the turn's I/O callbacks. This is not ioredis `enableAutoPipelining`
 * (which regroups commands into pipelines): ioredis writes each command as before.
 * A Cluster (one socket per node, chosen per command) is left alone.
 */
export function createWriteCoalescer(redis: RedisClient, options: { onReplies?: boolean } = {}): WriteCoalescer {
  if ((redis as { isCluster?: boolean }).isCluster !== false) return NO_COALESCING;
  let corked: Corkable | undefined;
  const uncork = () => {
    const stream = corked;
    corked = undefined;
    stream?.uncork();
  };
  const coalesce = () => {
    if (corked !== undefined) return;
    const stream = (redis as { stream?: Corkable }).stream;
    if (stream === undefined || !stream.writable) return;
    stream.cork();
    corked = stream;
    setImmediate(uncork);
  };
  if (options.onReplies === true) {
    // A turn that reads replies is one whose callers write their next commands (BullMQ's and the
    // webhook hook's among them): cork it too. ioredis parses a chunk in its own (prepended)
    // listener; the replies' callers run in the microtasks after both listeners, before the uncork.
    const listen = () => (redis as unknown as { stream?: NodeJS.EventEmitter }).stream?.on('data', coalesce);
    redis.on('connect', listen);
    if (redis.status === 'connect' || redis.status === 'ready') listen();
  }
  return coalesce;
}
