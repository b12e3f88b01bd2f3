import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** A TCP proxy on loopback to a service's URL that can be cut (connections dropped, new ones refused) and restored. */
export interface CutProxy {
  /** The service's URL through the proxy. */
  readonly url: string;
  cut(): void;
  restore(): void;
  close(): void;
}

export async function cutProxy(target: URL): Promise<CutProxy> {
  const sockets = new Set<net.Socket>();
  let open = true;
  const server = net.createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = net.connect({ host: target.hostname, port: Number(target.port) });
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const cut = () => {
    open = false;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    cut,
    restore() {
      open = true;
    },
    close() {
      cut();
      server.close();
    },
  };
}
