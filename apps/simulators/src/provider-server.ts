import type { RequestListener, Server } from 'node:http';
import type { Socket } from 'node:net';
import { createLimitedServer, listenOn, type HttpServerLimits } from '@notify/runtime';

/**
 * An HTTP server that can be taken down and brought back on the same port, so "kill a
 * channel" is a real connection refused for the platform, not a flag it could see.
 */
export class RestartableServer {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private boundPort: number;

  constructor(
    private readonly app: RequestListener,
    private readonly host: string,
    port: number,
    private readonly limits: HttpServerLimits,
  ) {
    this.boundPort = port;
  }

  get port(): number {
    return this.boundPort;
  }

  get listening(): boolean {
    return this.server !== undefined;
  }

  async start(): Promise<number> {
    if (this.server) return this.boundPort;
    const server = createLimitedServer(this.app, this.limits);
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    this.boundPort = await listenOn(server, this.boundPort, this.host);
    this.server = server;
    return this.boundPort;
  }

  /** Closes the port and cuts every open connection (a dead provider keeps no keep-alive sockets). */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }
}
