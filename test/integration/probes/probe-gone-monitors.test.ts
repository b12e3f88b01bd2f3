import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { sql } from '../../../src/infrastructure/persistence/sql';
import { anOrganization, type SignedUp } from '../../support/builders';
import { aCustomerRow } from '../../support/identity-fixtures';
import { aMonitorRow } from '../../support/results-fixtures';
import { aCompactResult, aProbeSite, PROBE_STATUS, probeCall, type ProbeSite } from '../../support/probe-api';
import { testServer } from '../../support/test-server';

const db = async <T>(statement: ReturnType<typeof sql>) => (await testServer()).database.sql.query<T>(statement);
const storedFor = async (monitorId: number) =>
  Number((await db<{ n: string }>(sql`SELECT count(*) AS n FROM check_results WHERE monitor_id = ${monitorId}`))[0]!.n);

/**
 * A probe holding monitors that are then paused, deleted, or no longer checked from its location
 * hears of each through the change log (marked gone), finds no held row for them (the re-read a
 * probe makes after a change), and results it still sends for them are refused: nothing is stored.
 */
describe('probes: monitors taken away from a probe', function () {
  this.timeout(60_000);
  let org: SignedUp;
  let site: ProbeSite;
  let elsewhere: ProbeSite;
  const instance = randomUUID();
  let ids: { kept: number; paused: number; deleted: number; moved: number; unrelated: number };
  let changesFrom: number;
  let serverTime: number;
  let seq = 0;

  const call = async (path: string, body: unknown, key = site.key) => {
    const answer = await probeCall(key, instance, path, body);
    expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).to.be.oneOf([200, 204]);
    return answer.body;
  };

  before(async () => {
    org = await anOrganization('probe-gone');
    [site, elsewhere] = await Promise.all([aProbeSite(org.token, 'office'), aProbeSite(org.token, 'branch')]);
    const customerId = await aCustomerRow(org.user.organizationId);
    const at = (locations: string[]) => aMonitorRow(org.user.organizationId, customerId, { locations });
    const [kept, paused, deleted, moved, unrelated] = await Promise.all([
      at([site.code]),
      at([site.code]),
      at([site.code]),
      at([site.code, elsewhere.code]),
      at([elsewhere.code]),
    ]);
    ids = { kept: kept!.id, paused: paused!.id, deleted: deleted!.id, moved: moved!.id, unrelated: unrelated!.id };
    serverTime = (await call('/hello', { name: 'office-1', version: 'test' })).serverTime;
    changesFrom = (await call('/schedule/register', { generation: 0 })).changesFrom;
    const claimed = await call('/schedule/claim', { generation: 0, limit: 100, adoptLimit: 0 });
    expect(claimed.rows.map((r: unknown[]) => r[0]).sort()).to.deep.equal([ids.kept, ids.paused, ids.deleted, ids.moved].sort());

    await db(sql`UPDATE monitors SET status = 'paused' WHERE id = ${ids.paused}`);
    await db(sql`DELETE FROM monitors WHERE id = ${ids.deleted}`);
    await db(sql`UPDATE monitors SET locations = ${`{${elsewhere.code}}`}::text[] WHERE id = ${ids.moved}`);
    await db(sql`UPDATE monitors SET name = 'renamed' WHERE id IN (${ids.kept}, ${ids.unrelated})`);
  });

  it('tells the probe of each monitor taken away from its location (gone), of edits of its own, and of nothing else', async () => {
    const page = await call('/schedule/changes', { after: changesFrom });
    const byMonitor = new Map<number, { gone?: boolean }>(page.changes.map((c: { monitorId: number }) => [c.monitorId, c]));
    expect([...byMonitor.keys()].sort()).to.deep.equal([ids.kept, ids.paused, ids.deleted, ids.moved].sort());
    for (const id of [ids.paused, ids.deleted, ids.moved]) expect(byMonitor.get(id), String(id)).to.include({ gone: true });
    expect(byMonitor.get(ids.kept)).to.not.have.property('gone');
    expect(page.more).to.equal(false);
    expect(page.readThrough).to.be.at.least(page.changes.at(-1).seq);
  });

  it('answers no held row for them when the probe reads its changed monitors again (what deployed probes do)', async () => {
    const held = await call('/schedule/held', { generation: 0, monitorIds: Object.values(ids) });
    expect(held.rows.map((r: unknown[]) => r[0])).to.deep.equal([ids.kept]);
  });

  it('refuses results still sent for them, storing none, while the monitor still checked from there is stored', async () => {
    const gone = [ids.paused, ids.deleted, ids.moved];
    const before = await Promise.all(gone.map(storedFor));
    const results = [ids.kept, ...gone].map((id) => aCompactResult(++seq, instance, id, serverTime + seq));
    const answer = await call('/results', { results, status: PROBE_STATUS });
    expect(answer).to.include({ recorded: 1, refused: 3, late: 0 });
    expect(await Promise.all(gone.map(storedFor))).to.deep.equal(before);
    expect(await storedFor(ids.kept)).to.equal(1);
  });
});
