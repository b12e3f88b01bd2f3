import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { GracefulServer } from '../../../src/main/graceful-server';
import { currentScope } from '../../../src/infrastructure/persistence/work-scope';

/** One request on a connection of its own, answered as status and body (or the socket's error). */
function get(port: number, path: string): Promise<{ status: number; body: string; connection: string | undefined } | Error> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }));
    });
    req.on('error', resolve);
  });
}

/**
 * The HTTP stop on loopback: a slow request in flight gets its answer, an event stream is ended,
 * and a request past the grace is cut (its scope refuses database work) and still answered.
 */
describe('GracefulServer stop', () => {
  const logger = pino({ level: 'silent' });

  it('lets the requests in flight finish and ends event streams', async () => {
    const server = new GracefulServer((req, res) => {
      if (req.url === '/events') {
        res.setHeader('content-type', 'text/event-stream; charset=utf-8'); // as the live event stream sets it
        res.writeHead(200);
        res.write(': open\n\n');
        return;
      }
      setTimeout(() => res.end('done'), 300);
    }, logger);
    await server.listen(0, '127.0.0.1');
    const { port } = server.server.address() as AddressInfo;
    const slow = get(port, '/slow');
    const stream = get(port, '/events');
    await new Promise((resolve) => setTimeout(resolve, 50));
    let cut = 0;
    await server.stop(5_000, { abortCut: () => ++cut });
    expect(await slow).to.deep.include({ status: 200, body: 'done' });
    expect(await stream).to.deep.include({ status: 200, body: ': open\n\n' });
    expect(cut, 'nothing cut within the grace').to.equal(0);
  });

  it('answers the connections the kernel had queued when the stop began 503 serviceStopping, rather than resetting them', async () => {
    const server = new GracefulServer((_req, res) => res.end('taken'), logger);
    await server.listen(0, '127.0.0.1');
    const { port } = server.server.address() as AddressInfo;
    // Twenty clients connect (their connect calls go out on the next tick) while the process is then
    // held busy: the kernel completes their connections and queues them for the listener, where
    // nothing accepts them before the stop begins.
    const queued = Array.from({ length: 20 }, (_, i) => get(port, `/queued-${i}`));
    const stopped = new Promise<void>((resolve, reject) =>
      process.nextTick(() => {
        const busyUntil = Date.now() + 300;
        while (Date.now() < busyUntil) {
          // held: nothing is accepted meanwhile
        }
        server.stop(1_000, { abortCut: () => 0 }).then(resolve, reject);
      }),
    );
    const answers = await Promise.all(queued);
    await stopped;
    expect(answers.map((answer) => (answer instanceof Error ? answer.message : answer.status))).to.deep.equal(Array(20).fill(503));
    for (const answer of answers as Array<{ body: string; connection: string | undefined }>) {
      expect(JSON.parse(answer.body).data.code).to.equal('serviceStopping');
      expect(answer.connection).to.equal('close');
    }
    expect(await get(port, '/after'), 'a connection after the stop').to.be.instanceOf(Error);
  });

  it('cuts what outlives the grace: its scope refuses database work and the database resets its connections', async () => {
    const server = new GracefulServer((_req, res) => {
      const scope = currentScope()!;
      // Outlives any grace: answers once its scope is cut, as a handler whose database work then fails does.
      const timer = setInterval(() => {
        if (!scope.cut) return;
        clearInterval(timer);
        res.writeHead(503).end('cut');
      }, 20);
    }, logger);
    await server.listen(0, '127.0.0.1');
    const { port } = server.server.address() as AddressInfo;
    const inFlight = get(port, '/long');
    await new Promise((resolve) => setTimeout(resolve, 50));
    let aborted = 0;
    await server.stop(200, { abortCut: () => ++aborted });
    expect(await inFlight).to.deep.include({ status: 503, body: 'cut' });
    expect(aborted, 'the database was told to reset the cut work').to.equal(1);
    expect(await get(port, '/after'), 'a connection after the stop').to.be.instanceOf(Error);
  });
});
