import { EventEmitter } from 'node:events';
import type { RedisClient } from '@notify/runtime';
import { NO_COALESCING, createWriteCoalescer } from './write-coalescer';

/** A stand-in for an ioredis client: its socket counts corks and uncorks. */
function fakeRedis(isCluster = false) {
  const stream = Object.assign(new EventEmitter(), {
    writable: true,
    corks: 0,
    uncorks: 0,
    cork() {
      this.corks += 1;
    },
    uncork() {
      this.uncorks += 1;
    },
  });
  const redis = Object.assign(new EventEmitter(), { isCluster, status: 'ready', stream });
  return { redis: redis as unknown as RedisClient, stream, client: redis };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createWriteCoalescer', () => {
  it('corks the socket once per event-loop turn and uncorks it at the turn end', async () => {
    const { redis, stream } = fakeRedis();
    const coalesce = createWriteCoalescer(redis);
    coalesce();
    coalesce();
    await Promise.resolve();
    coalesce();
    expect([stream.corks, stream.uncorks]).toEqual([1, 0]);
    await nextTurn();
    expect([stream.corks, stream.uncorks]).toEqual([1, 1]);
    coalesce();
    await nextTurn();
    expect([stream.corks, stream.uncorks]).toEqual([2, 2]);
  });

  it('leaves a socket that is not writable, and a Cluster, alone', async () => {
    const closed = fakeRedis();
    closed.stream.writable = false;
    createWriteCoalescer(closed.redis)();
    expect(closed.stream.corks).toBe(0);
    expect(createWriteCoalescer(fakeRedis(true).redis)).toBe(NO_COALESCING);
  });

  it('with onReplies, corks a turn that reads replies, on the current and on every new connection', async () => {
    const { redis, stream, client } = fakeRedis();
    createWriteCoalescer(redis, { onReplies: true });
    stream.emit('data', Buffer.from('+OK\r\n'));
    expect(stream.corks).toBe(1);
    await nextTurn();
    expect(stream.uncorks).toBe(1);
    const { stream: next } = fakeRedis();
    client.stream = next;
    client.emit('connect');
    next.emit('data', Buffer.from('+OK\r\n'));
    await nextTurn();
    expect([next.corks, next.uncorks]).toEqual([1, 1]);
  });
});
