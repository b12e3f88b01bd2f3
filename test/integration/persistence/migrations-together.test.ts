import { expect } from 'chai';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../../src/infrastructure/persistence/database';
import { migrationsList } from '../../../src/infrastructure/persistence/migrations';
import { testDatabase } from '../../support/test-server';

const onServer = async <T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
};

describe('migrations of processes starting together', () => {
  it('are applied once, by one process, while the others wait for it and then find the schema current', async function () {
    this.timeout(180_000);
    const { url } = await testDatabase();
    const name = `together_${randomBytes(4).toString('hex')}`;
    await onServer(url, (client) => client.query(`CREATE DATABASE ${name}`));
    const fresh = new URL(url);
    fresh.pathname = `/${name}`;
    try {
      const opened = await Promise.allSettled(
        [1, 2, 3].map(() => openDatabase(fresh.href, { prepareConnection: async () => undefined, poolMax: 2, sqlPoolMax: 2 })),
      );
      const answered = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value.migrationNames] : []));
      await Promise.all(opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value.close()] : [])));
      expect(opened.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []))).to.deep.equal([]);
      const applied = await onServer(fresh.href, async (client) =>
        (await client.query<{ name: string }>('SELECT name FROM mikro_orm_migrations ORDER BY id')).rows.map((r) => r.name),
      );
      expect(applied).to.deep.equal(migrationsList.map((m) => m.name));
      // Each process was told this build's names by its migrations' child process (what its readiness probe counts).
      expect(answered).to.deep.equal([1, 2, 3].map(() => applied));
    } finally {
      await onServer(url, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    }
  });
});
