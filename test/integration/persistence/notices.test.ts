import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import pino from 'pino';
import { listenToNotices } from '../../../src/infrastructure/persistence/pg-notices';
import { waitFor } from '../../support/wait-for';
import { testDatabase, testServer } from '../../support/test-server';
import { sql } from '../../../src/infrastructure/persistence/sql';

/**
 * A TCP relay in front of the test PostgreSQL that can be cut and closed: while closed it hangs up
 * on every connection at once (as a server out of reach would), and notes when each attempt came.
 */
async function relay(databaseUrl: string) {
  const target = new URL(databaseUrl);
  // The embedded server's URL names its Unix socket directory; it listens on loopback TCP as well.
  const host = target.hostname.includes('%2F') ? '127.0.0.1' : target.hostname;
  const port = Number(target.port);
  const open = new Set<net.Socket>();
  const attempts: number[] = [];
  let accepting = true;
  const server = net.createServer((client) => {
    attempts.push(Date.now());
    if (!accepting) {
      client.destroy();
      return;
    }
    const upstream = net.connect({ host, port });
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      open.add(from);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        open.delete(from);
        to.destroy();
      });
      from.pipe(to);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    attempts,
    /** Cuts every relayed connection and hangs up on new ones. */
    cut() {
      accepting = false;
      for (const socket of open) socket.destroy();
    },
    reopen() {
      accepting = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const gapsOf = (times: readonly number[]) => times.slice(1).map((t, i) => t - times[i]!);

describe('notice channels (LISTEN on PostgreSQL)', () => {
  it('tries again ever later while PostgreSQL is out of reach, and from the first delay once it was back', async () => {
    const { database } = await testServer();
    const { url } = await testDatabase();
    const peer = await relay(url);
    const notices: string[] = [];
    let lost = 0;
    let resumed = 0;
    const warnings: { retryInMs: number; failures: number }[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) });
    const stop = await listenToNotices(
      peer.url,
      'notices_test',
      'test',
      logger,
      {
        notice: (payload) => notices.push(payload),
        lost: () => lost++,
        resumed: () => resumed++,
      },
      { firstMs: 50, mostMs: 400 },
    );
    try {
      await database.sql.query(sql`SELECT pg_notify('notices_test', 'first')`);
      await waitFor(() => notices.includes('first'), { what: 'the first notice' });

      peer.cut();
      const cutAt = Date.now();
      await waitFor(() => peer.attempts.filter((t) => t > cutAt).length >= 5, { what: 'five attempts' });
      expect(lost, 'the loss was told').to.equal(1);
      const retries = peer.attempts.filter((t) => t > cutAt);
      const gaps = gapsOf(retries);
      // 100, 200, 400 (the most) after the first at 50 ms: each at least about as long as the one before.
      expect(gaps[0], 'the second delay').to.be.at.least(90);
      expect(gaps[2], 'the fourth delay').to.be.at.least(350);
      expect(warnings.map((w) => w.retryInMs).slice(0, 5)).to.deep.equal([50, 100, 200, 400, 400]);

      peer.reopen();
      await waitFor(() => resumed === 1, { what: 'listening again' });
      await database.sql.query(sql`SELECT pg_notify('notices_test', 'second')`);
      await waitFor(() => notices.includes('second'), { what: 'a notice after the return' });

      const shown = warnings.length;
      peer.cut();
      await waitFor(() => lost === 2 && warnings.length > shown, { what: 'lost again' });
      expect(warnings[shown]!.retryInMs, 'the first delay again').to.equal(50);
    } finally {
      await stop();
      await peer.close();
    }
  });
});
