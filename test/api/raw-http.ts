import { connect, type Socket } from 'node:net';

export interface RawExchange {
  /** Everything the server wrote before it closed the connection. */
  response: string;
  /** The status line's code, or undefined if the server closed without answering. */
  status: number | undefined;
  /** The JSON body, when there is one. */
  body: { error?: { code?: string; message?: string } } | undefined;
}

/**
 * A raw TCP client, so a test can do what no HTTP library lets it: stop halfway through the
 * headers, trickle a body, declare a length it never sends. `script` writes to the socket; the
 * promise settles when the server closes the connection, or rejects after `timeoutMs` (a server
 * without limits keeps the socket open far longer than that).
 */
export function rawExchange(url: string, script: (socket: Socket) => void, timeoutMs: number): Promise<RawExchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let response = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server still held the connection after ${timeoutMs} ms; it wrote: ${JSON.stringify(response.slice(0, 200))}`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      response += chunk.toString();
    });
    socket.on('error', () => undefined); // a reset after the answer is part of being cut off
    socket.on('close', () => {
      clearTimeout(timer);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(response)?.[1];
      const text = response.split('\r\n\r\n').slice(1).join('\r\n\r\n');
      let body: RawExchange['body'];
      try {
        body = text ? (JSON.parse(text) as RawExchange['body']) : undefined;
      } catch {
        body = undefined;
      }
      resolve({ response, status: status === undefined ? undefined : Number(status), body });
    });
    socket.on('connect', () => script(socket));
  });
}

/** Writes `chunk` every `everyMs` until the socket closes or `maxWrites` were sent (bounded). */
export function trickle(socket: Socket, chunk: string, everyMs: number, maxWrites: number): void {
  let writes = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || writes >= maxWrites) {
      clearInterval(timer);
      return;
    }
    writes += 1;
    socket.write(chunk);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}
