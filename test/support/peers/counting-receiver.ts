import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A loopback HTTP receiver that counts the connections it accepted (and which local address each
 * reached) and the requests it answered, and can hold its answers until the test lets them go (a
 * slow receiver). Answers 200 `ok`. Listens on every loopback address unless told one.
 */
export class CountingReceiver {
  /** The local address of each connection accepted, in order. */
  readonly connections: string[] = [];
  readonly requests: Array<{ path: string; body: string; connection: number }> = [];
  /** Requests waiting for `release` while `holding`. */
  held = 0;
  holding = false;
  private readonly waiting: Array<() => void> = [];
  private readonly sockets = new Map<Socket, number>();
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      this.requests.push({
        path: req.url ?? '/',
        body: Buffer.concat(chunks).toString('utf8'),
        connection: this.sockets.get(req.socket) ?? -1,
      });
      const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (!this.holding) return answer();
      this.held++;
      this.waiting.push(() => {
        this.held--;
        answer();
      });
    });
  });

  constructor(private readonly listenOn = '0.0.0.0') {
    this.server.on('connection', (socket: Socket) => {
      this.sockets.set(socket, this.connections.length);
      this.connections.push(socket.localAddress ?? '');
    });
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Answers every held request, and those arriving later. */
  release(): void {
    this.holding = false;
    for (const answer of this.waiting.splice(0)) answer();
  }

  start(): Promise<this> {
    return new Promise((resolve) => this.server.listen(0, this.listenOn, () => resolve(this)));
  }

  stop(): Promise<void> {
    this.release();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
