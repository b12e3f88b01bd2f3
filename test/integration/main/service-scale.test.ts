import { expect } from 'chai';
import net from 'node:net';
import pg from 'pg';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchScale, MONITORS_HELD_FILE, monitorsAtStart, rememberMonitorsHeld } from '../../../src/main/gc-tuning';
import { testDatabase, testServer } from '../../support/test-server';

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('SERVICE_SCALE=auto against the database (scripts/node-command.cjs before node starts)', () => {
  let url: string;
  let held: number;

  before(async () => {
    await testServer(); // migrated, with whatever monitors the suite has created so far
    url = (await testDatabase()).url;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    held = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM monitors')).rows[0]!.n);
    await client.end();
  });

  it('reads how many monitors the database holds', async () => {
    expect(await monitorsAtStart({ DATABASE_URL: url })).to.equal(held);
  });

  it('starts large from the threshold and small below it', async () => {
    expect(await launchScale({ DATABASE_URL: url, SERVICE_SCALE_LARGE_AT: String(held) })).to.equal('large');
    expect(await launchScale({ DATABASE_URL: url, SERVICE_SCALE_LARGE_AT: String(held + 1) })).to.equal('small');
    expect(await launchScale({ DATABASE_URL: url, SERVICE_SCALE: 'small', SERVICE_SCALE_LARGE_AT: '0' })).to.equal('small');
  });

  it('starts small when the database does not answer, or holds no schema yet', async () => {
    const port = await closedPort();
    const unreachable = `postgres://nobody:nothing@127.0.0.1:${port}/none`;
    expect(await monitorsAtStart({ DATABASE_URL: unreachable })).to.equal(undefined);
    expect(await launchScale({ DATABASE_URL: unreachable, SERVICE_SCALE_LARGE_AT: '0' })).to.equal('small');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const empty = `scale_${Date.now()}`;
    await client.query(`CREATE DATABASE ${empty}`);
    try {
      const emptyUrl = new URL(url);
      emptyUrl.pathname = `/${empty}`;
      expect(await monitorsAtStart({ DATABASE_URL: emptyUrl.toString() })).to.equal(undefined);
    } finally {
      await client.query(`DROP DATABASE IF EXISTS ${empty} WITH (FORCE)`);
      await client.end();
    }
  });
});

describe('SERVICE_SCALE=auto on the embedded PostgreSQL (the count its service left in DATA_DIR)', () => {
  it('reads the count the last service left, and starts small without one or with a damaged one', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'scale-'));
    try {
      expect(await monitorsAtStart({ DATA_DIR: dataDir }), 'before any start').to.equal(undefined);
      expect(await launchScale({ DATA_DIR: dataDir, SERVICE_SCALE_LARGE_AT: '1' })).to.equal('small');
      await rememberMonitorsHeld(dataDir, 12_000);
      expect(await monitorsAtStart({ DATA_DIR: dataDir })).to.equal(12_000);
      expect(await launchScale({ DATA_DIR: dataDir })).to.equal('large');
      expect(await launchScale({ DATA_DIR: dataDir, SERVICE_SCALE_LARGE_AT: '12001' })).to.equal('small');
      expect(await launchScale({ DATA_DIR: dataDir, SERVICE_SCALE: 'small' })).to.equal('small');
      for (const damaged of ['{"monitors": ', '{"monitors": -3}', '{"monitors": "many"}', '[]']) {
        writeFileSync(path.join(dataDir, MONITORS_HELD_FILE), damaged);
        expect(await monitorsAtStart({ DATA_DIR: dataDir }), damaged).to.equal(undefined);
        expect(await launchScale({ DATA_DIR: dataDir, SERVICE_SCALE_LARGE_AT: '1' }), damaged).to.equal('small');
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
