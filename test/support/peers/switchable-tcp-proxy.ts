import net from 'node:net';
import { listenOnLoopback } from './loopback-listen';

/**
 * A loopback TCP proxy in front of a real server that a test can cut: `refuse` drops every open
 * connection and closes new ones at once (the server is unreachable), `hang` keeps connections
 * open but passes nothing either way (the server is stuck), `forward` passes traffic again (after
 * a hang, on new connections only: the stuck ones are dropped, as their streams lost bytes).
 */
export class SwitchableTcpProxy {
  private mode: 'forward' | 'refuse' | 'hang' = 'forward';
  private readonly open = new Set<net.Socket>();
  private readonly server = net.createServer((client) => this.accept(client));

  private constructor(private readonly target: { host: string; port: number }) {}

  static async start(target: { host: string; port: number }): Promise<SwitchableTcpProxy> {
    const proxy = new SwitchableTcpProxy(target);
    await listenOnLoopback(proxy.server);
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  set(mode: 'forward' | 'refuse' | 'hang'): void {
    const was = this.mode;
    this.mode = mode;
    if (mode === 'refuse' || was === 'hang') for (const socket of this.open) socket.destroy();
  }

  close(): Promise<void> {
    this.set('refuse');
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    this.track(client);
    if (this.mode === 'refuse') return void client.destroy();
    if (this.mode === 'hang') return;
    const upstream = this.track(net.connect(this.target));
    client.on('data', (chunk: Buffer) => this.mode === 'forward' && upstream.write(chunk));
    upstream.on('data', (chunk: Buffer) => this.mode === 'forward' && client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.once('close', end);
    upstream.once('close', end);
  }

  private track(socket: net.Socket): net.Socket {
    this.open.add(socket);
    socket.on('error', () => undefined);
    socket.once('close', () => this.open.delete(socket));
    return socket;
  }
}
