import type http from 'node:http';
import type net from 'node:net';

/** Listens on 127.0.0.1 at a free port. */
export const listenOnLoopback = <S extends net.Server>(server: S): Promise<S> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));

/** Closes an HTTP(S) peer at once, kept-alive connections included. */
export const closeNow = (server: http.Server): Promise<void> => {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
};
