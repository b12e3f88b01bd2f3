import { expect } from 'chai';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../../src/infrastructure/persistence/embedded-postgres';

const serverAddress = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [row] = (await client.query<{ address: string | null }>('SELECT inet_server_addr()::text AS address')).rows;
    return row!.address;
  } finally {
    await client.end();
  }
};

describe('embedded PostgreSQL', function () {
  this.timeout(60_000);
  const dirs: string[] = [];
  const dataDir = async (prefix: string) => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  after(() => Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true }))));

  it('answers a URL naming its Unix socket under DATA_DIR, which a client reaches with the password', async () => {
    const dir = await dataDir('monitoring-embedded-');
    // Given relative (as DATA_DIR may be), the socket's path in the URL is still absolute.
    const server = await startEmbeddedPostgres(path.relative(process.cwd(), dir), { database: 'socket_test', persistent: false });
    try {
      const url = new URL(server.url);
      expect(decodeURIComponent(url.hostname)).to.equal(path.join(dir, 'socket'));
      // A Unix-socket session has no server address; a TCP one would answer 127.0.0.1.
      expect(await serverAddress(server.url)).to.equal(null);
      url.password = 'wrong';
      await serverAddress(url.toString()).then(
        () => expect.fail('a wrong password connected'),
        (error: { code?: string }) => expect(error.code).to.equal('28P01'),
      );
    } finally {
      await server.stop();
    }
  });

  it('falls back to loopback TCP when the socket path would be longer than the kernel allows', async () => {
    const dir = await dataDir(`monitoring-embedded-${'a-long-name-'.repeat(8)}`);
    const server = await startEmbeddedPostgres(dir, { database: 'tcp_test', persistent: false });
    try {
      expect(new URL(server.url).hostname).to.equal('127.0.0.1');
      expect(await serverAddress(server.url)).to.equal('127.0.0.1/32');
    } finally {
      await server.stop();
    }
  });
});
