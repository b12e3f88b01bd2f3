/** Loopback targets for bench/engine.bench.ts, in their own process: an HTTP server and a TCP listener. */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

const web = http.createServer((_req, res) => res.end('ok')).listen(0, '127.0.0.1', () => {
  const tcp = net.createServer((socket) => socket.end()).listen(0, '127.0.0.1', () =>
    process.send!({ http: (web.address() as AddressInfo).port, tcp: (tcp.address() as AddressInfo).port }));
});
