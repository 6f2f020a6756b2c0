import { connect } from 'node:net';

/** PostgreSQL's SSLRequest: length 8, code 80877103. Any server answers it with one byte, `S` or `N`, before any authentication. */
const SSL_REQUEST = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);

/**
 * True when a PostgreSQL server answers at `url`'s host and port (one attempt, bounded by
 * `timeoutMs`). No credentials are sent: whether the url's user may log in is the apps' to
 * report. `npm start`'s check, like redisAnswers for Redis.
 */
export function postgresAnswers(url: string, timeoutMs = 1_000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || '5432') });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write(SSL_REQUEST));
    socket.once('data', (chunk: Buffer) => done(chunk[0] === 0x53 || chunk[0] === 0x4e));
    socket.once('end', () => done(false));
  });
}
