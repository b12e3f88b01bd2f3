/** Loopback targets for bench/engine.bench.ts, in their own process: an HTTP server and a TCP listener. */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** Accept queues as long as the kernel allows (somaxconn): thousands of checks arrive at once in a burst. */
const BACKLOG = 4096;

const web = http.createServer((_req, res) => res.end('ok')).listen(0, '127.0.0.1', BACKLOG, () => {
  const tcp = net.createServer((socket) => socket.end()).listen(0, '127.0.0.1', BACKLOG, () =>
    process.send!({ http: (web.address() as AddressInfo).port, tcp: (tcp.address() as AddressInfo).port }));
});
