/**
 * Types for the parts of the untyped `smpp` package (farhadi/node-smpp 0.5.1) this adapter
 * uses: a session (client or server side), its PDUs and the server. Only what
 * packages/providers/src/smpp reads or calls is declared; every PDU field is optional and
 * checked where it is read. Nothing outside packages/providers/src/smpp imports 'smpp'.
 */
declare module 'smpp' {
  import type { EventEmitter } from 'node:events';
  import type { Server as NetServer, Socket } from 'node:net';

  /** A received short_message after the package's decode filter (text decoded by data_coding, UDH split off). */
  interface DecodedShortMessage {
    udh?: Buffer[];
    message: string | Buffer;
  }

  /** A PDU as the package builds or parses it: header fields plus the command's parameters and TLVs by name. */
  class PDU {
    constructor(command: string, options?: Record<string, unknown>);
    command: string;
    command_id: number;
    command_status: number;
    sequence_number: number;
    system_id?: string;
    password?: string;
    system_type?: string;
    message_id?: string;
    source_addr?: string;
    source_addr_ton?: number;
    source_addr_npi?: number;
    destination_addr?: string;
    dest_addr_ton?: number;
    dest_addr_npi?: number;
    esm_class?: number;
    data_coding?: number | null;
    registered_delivery?: number;
    short_message?: Buffer | DecodedShortMessage | string;
    receipted_message_id?: string;
    message_state?: number;
    isResponse(): boolean;
    response(options?: Record<string, unknown>): PDU;
    toBuffer(): Buffer;
  }

  class Session extends EventEmitter {
    socket: Socket;
    server?: Server;
    /** Writes a PDU; answers false when the socket is not writable (nothing was written). */
    send(pdu: PDU, responseCallback?: (pdu: PDU) => void, sendCallback?: (pdu: PDU) => void): boolean;
    pause(): void;
    resume(): void;
    close(callback?: () => void): void;
    destroy(callback?: () => void): void;
  }

  class Server extends NetServer {
    sessions: Session[];
  }

  interface ConnectOptions {
    host: string;
    port: number;
    tls?: boolean;
  }

  function connect(options: ConnectOptions): Session;
  function createServer(listener: (session: Session) => void): Server;

  const encodings: {
    ASCII: { encode(text: string): Buffer; decode(data: Buffer): string };
    UCS2: { encode(text: string): Buffer; decode(data: Buffer): string };
  };
}
