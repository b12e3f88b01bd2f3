import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { PgCheckSchedule } from '../../../../src/infrastructure/scheduling/pg-check-schedule';
import { SqlServedLocations } from '../../../../src/infrastructure/scheduling/sql-served-locations';
import { testServer } from '../../../support/test-server';
import { standalone } from '../../../support/unit-of-work';
import { sql } from '../../../../src/infrastructure/persistence/sql';

describe('served locations (PostgreSQL)', () => {
  it('lists the locations of live workers only: lapsed and fenced registrations do not count', async () => {
    const { database } = await testServer();
    const schedule = new PgCheckSchedule(standalone(database.sql));
    const served = new SqlServedLocations(database.sql);
    const tag = randomBytes(3).toString('hex');
    const [live, lapsed, fenced] = ['live', 'lapsed', 'fenced'].map((name) => `${name}-${tag}`) as [string, string, string];
    const now = new Date();
    await schedule.register(`w-${live}`, [live, 'heartbeat'], new Date(now.getTime() + 15_000), 0);
    await schedule.register(`w-${lapsed}`, [lapsed], new Date(now.getTime() - 1), 0);
    await schedule.register(`w-${fenced}`, [fenced], new Date(now.getTime() + 15_000), 0);
    await database.sql.query(sql`UPDATE check_workers SET alive_until = '-infinity' WHERE worker_id = ${`w-${fenced}`}`);
    try {
      const locations = await served.live(now);
      expect(locations).to.include.members([live, 'heartbeat']);
      expect(locations).not.to.include.members([lapsed]);
      expect(locations).not.to.include.members([fenced]);
      expect(await served.live(new Date(now.getTime() + 16_000)), 'once its registration lapses').not.to.include(live);
    } finally {
      for (const name of [live, lapsed, fenced]) await schedule.resign(`w-${name}`, []);
    }
  });
});
