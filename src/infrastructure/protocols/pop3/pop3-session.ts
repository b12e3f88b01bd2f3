import net from 'node:net';
import tls from 'node:tls';
import { ProbeError } from '../shared/probe-error';
import type { SharedTlsContext } from '../shared/tls-context';

/**
 * A minimal POP3 client (RFC 1939 + STLS from RFC 2595) for greeting, TLS and login checks only:
 * no well-kept POP3 client exists for Node, and these few single-line commands are all a check sends.
 */
export class Pop3Session {
  private buffer = '';
  private waiting: { resolve(line: string): void; reject(error: Error): void } | null = null;
  private failure: Error | null = null;

  constructor(private socket: net.Socket | tls.TLSSocket) {
    this.attach(socket);
  }

  get current(): net.Socket | tls.TLSSocket {
    return this.socket;
  }

  /** The next response line (+OK / -ERR ...). */
  readLine(): Promise<string> {
    const line = this.takeLine();
    if (line !== null) return Promise.resolve(line);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  async command(text: string): Promise<string> {
    this.socket.write(`${text}\r\n`);
    return this.readLine();
  }

  /** After `STLS` answered +OK: the handshake over the same connection. */
  async upgrade(context: SharedTlsContext, servername: string): Promise<tls.TLSSocket> {
    const plain = this.socket;
    plain.removeAllListeners('data');
    this.buffer = '';
    const secure = await new Promise<tls.TLSSocket>((resolve, reject) => {
      const socket = tls.connect({ ...context.options(servername), socket: plain, host: servername });
      socket.once('secureConnect', () => resolve(socket));
      socket.once('error', (error) => reject(new ProbeError('tlsHandshakeFailed', `TLS handshake failed: ${error.message}`)));
    });
    this.socket = secure;
    this.attach(secure);
    return secure;
  }

  close(): void {
    this.socket.destroy();
  }

  private attach(socket: net.Socket): void {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      if (this.buffer.length > 64 * 1024) this.fail(new ProbeError('protocolError', 'Response line too long'));
      const line = this.waiting ? this.takeLine() : null;
      if (line !== null && this.waiting) {
        const { resolve } = this.waiting;
        this.waiting = null;
        resolve(line);
      }
    });
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new ProbeError('protocolError', 'The server closed the connection')));
  }

  private takeLine(): string | null {
    const end = this.buffer.indexOf('\n');
    if (end < 0) return null;
    const line = this.buffer.slice(0, end).replace(/\r$/, '');
    this.buffer = this.buffer.slice(end + 1);
    return line;
  }

  private fail(error: Error): void {
    this.failure ??= error;
    if (this.waiting) {
      const { reject } = this.waiting;
      this.waiting = null;
      reject(this.failure);
    }
  }
}
