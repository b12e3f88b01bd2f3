/**
 * Loopback targets for bench/engine.bench.ts, in their own process: an HTTP server and a TCP listener.
 * Paths under /storm/ answer 503 while a storm is on (IPC {storm: true}, off with {storm: false}).
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** Accept queues as long as the kernel allows (somaxconn): thousands of checks arrive at once in a burst. */
const BACKLOG = 4096;

let storm = false;
process.on('message', (m: { storm?: boolean }) => {
  if (typeof m.storm === 'boolean') storm = m.storm;
});

const web = http
  .createServer((req, res) => {
    if (storm && req.url?.startsWith('/storm/')) res.statusCode = 503;
    res.end('ok');
  })
  .listen(0, '127.0.0.1', BACKLOG, () => {
    const tcp = net
      .createServer((socket) => socket.end())
      .listen(0, '127.0.0.1', BACKLOG, () =>
        process.send!({ http: (web.address() as AddressInfo).port, tcp: (tcp.address() as AddressInfo).port }),
      );
  });
