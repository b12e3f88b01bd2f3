import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { SCREENSHOTS_PER_MONITOR } from '../../../../src/application/checks/ports';
import { SqlScreenshotStore } from '../../../../src/infrastructure/checks/sql-screenshot-store';
import { anOrganization } from '../../../support/builders';
import { aCustomerRow } from '../../../support/identity-fixtures';
import { aMonitorRow } from '../../../support/results-fixtures';
import { testServer } from '../../../support/test-server';
import { sql } from '../../../../src/infrastructure/persistence/sql';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

describe('SqlScreenshotStore (check_screenshots)', () => {
  async function twoMonitors() {
    const org = await anOrganization('screenshots');
    const customerId = await aCustomerRow(org.user.organizationId);
    const a = await aMonitorRow(org.user.organizationId, customerId);
    const b = await aMonitorRow(org.user.organizationId, customerId);
    const { database } = await testServer();
    return { a, b, store: new SqlScreenshotStore(database.sql), sql: database.sql };
  }

  const shotOf = (monitor: { id: number; organizationId: number }, takenAt: Date) => ({
    id: randomUUID(),
    monitorId: monitor.id,
    organizationId: monitor.organizationId,
    takenAt,
    png: PNG,
  });

  it('keeps the bytes, finds a screenshot only under its own monitor', async () => {
    const { a, b, store } = await twoMonitors();
    const shot = shotOf(a, new Date('2026-11-22T10:00:00Z'));
    await store.save(shot);
    const found = await store.find(a.id, shot.id);
    expect(found).to.include({ id: shot.id, monitorId: a.id, organizationId: a.organizationId });
    expect([...found!.png]).to.deep.equal([...PNG]);
    expect(found!.takenAt.toISOString()).to.equal('2026-11-22T10:00:00.000Z');
    expect(await store.find(b.id, shot.id)).to.equal(null);
  });

  it(`keeps a monitor's newest ${SCREENSHOTS_PER_MONITOR}, purges by age, and goes with the monitor`, async () => {
    const { a, b, store, sql: runner } = await twoMonitors();
    const base = Date.parse('2020-01-01T00:00:00Z');
    const shots = Array.from({ length: SCREENSHOTS_PER_MONITOR + 2 }, (_, i) => shotOf(a, new Date(base + i * 60_000)));
    for (const shot of shots) await store.save(shot);
    await store.save(shotOf(b, new Date(base)));
    const count = async (monitorId: number) =>
      Number((await runner.query<{ n: string }>(sql`SELECT count(*) AS n FROM check_screenshots WHERE monitor_id = ${monitorId}`))[0]!.n);
    expect(await count(a.id)).to.equal(SCREENSHOTS_PER_MONITOR);
    expect(await store.find(a.id, shots[0]!.id), 'the oldest went').to.equal(null);
    expect(await store.find(a.id, shots[2]!.id)).not.to.equal(null);
    expect(await count(b.id), 'other monitors keep theirs').to.equal(1);

    expect(await store.purgeBefore(new Date(base + 10 * 60_000)), 'a: 2 to 9, b: 1').to.equal(9);
    expect(await store.find(a.id, shots[9]!.id)).to.equal(null);
    expect(await store.find(a.id, shots[10]!.id)).not.to.equal(null);

    await runner.query(sql`DELETE FROM monitors WHERE id = ${a.id}`);
    expect(await count(a.id)).to.equal(0);
  });
});
