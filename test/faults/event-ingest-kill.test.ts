import { expect } from 'chai';
import { apiAt } from '../support/http-client';
import { FaultRig, mustCall, signUpAt } from '../support/fault-rig';

/** Senders in flight at once, each sending its next event as soon as the last is answered. */
const SENDERS = 24;
/** The process is killed once this many events were answered 202 (under the 600 a minute of the organization). */
const KILL_AFTER = 250;

/**
 * SIGKILL mid-load on event ingest (group commit): 24 senders keep POST /api/im/events busy, each
 * event a trigger with a key of its own, and the process is killed hard while batches are forming
 * and committing. After a restart on the same database, every event that was answered 202 is
 * stored (its incident and its timeline entry): an answer comes only once the event's batch
 * committed, so a batch cut short by the kill was answered to no one.
 */
describe('SIGKILL during event ingest', function () {
  this.timeout(240_000);
  let rig: FaultRig;

  before(async () => {
    rig = await FaultRig.create('ingest', { CHECK_LOCATIONS: 'none' });
  });
  after(() => rig?.close());

  it('stores every event answered 202 before the kill', async () => {
    const first = await rig.start('first');
    const admin = await signUpAt(first.url, 'ingest');
    await rig.sql('UPDATE organizations SET incident_management_enabled = true WHERE id = $1', [admin.organizationId]);
    const { token } = await mustCall(first.url, 'POST', '/api/organization/tokens', 201, { token: admin.token, body: { name: 'tool' } });

    const acknowledged: string[] = [];
    let sent = 0;
    let failed = 0;
    let killing: Promise<void> | undefined;
    const sender = async (s: number) => {
      for (let n = 0; !killing; n++) {
        const key = `kill-${s}-${n}`;
        sent++;
        try {
          const response = await apiAt(first.url, 'POST', '/api/im/events', {
            token,
            body: {
              routing_key: 'r',
              event_action: 'trigger',
              dedup_key: key,
              payload: { summary: key, source: 'tool', severity: 'error' },
            },
          });
          if (response.status === 202) acknowledged.push(key);
          else failed++;
        } catch {
          failed++;
        }
        if (acknowledged.length >= KILL_AFTER) killing ??= rig.kill(first);
      }
    };
    await Promise.all(Array.from({ length: SENDERS }, (_, s) => sender(s)));
    await killing;
    expect(acknowledged.length).to.be.at.least(KILL_AFTER);
    // Killed mid-load: events were still being sent when the process died.
    expect(sent).to.be.greaterThan(acknowledged.length);

    const second = await rig.start('second');
    const stored = new Set(
      (
        await rig.sql<{ dedup_key: string }>(
          `SELECT i.dedup_key FROM im_incidents i
            WHERE i.organization_id = $1 AND EXISTS (SELECT 1 FROM im_incident_timeline t WHERE t.incident_id = i.id AND t.kind = 'triggered')`,
          [admin.organizationId],
        )
      ).map((row) => row.dedup_key),
    );
    const lost = acknowledged.filter((key) => !stored.has(key));
    expect(lost, `${lost.length} of ${acknowledged.length} acknowledged events lost (${failed} failed or cut off)`).to.deep.equal([]);
    // The restarted process serves them too.
    const listed = await mustCall(second.url, 'GET', '/api/im/incidents', 200, { token: admin.token, query: { perPage: '1' } });
    expect(listed.total).to.be.at.least(acknowledged.length);
  });
});
