import { expect } from 'chai';
import pg from 'pg';
import { apiAt } from '../support/http-client';
import { FaultRig, mustCall, signUpAt } from '../support/fault-rig';
import { waitFor } from '../support/wait-for';

/** Senders in flight at once, each sending its next event as soon as the last is answered. */
const SENDERS = 24;
/** The process is killed once this many events were answered 202 (under the 600 a minute of the organization). */
const KILL_AFTER = 250;
/** Dedup keys per sender: each key gets several triggers, so a decision made twice would count an occurrence twice. */
const KEYS_PER_SENDER = 4;

/**
 * SIGKILL mid-load on event ingest: 24 senders keep POST /api/im/events busy with triggers (each
 * event marked with a number of its own, each key triggered several times), and the process is
 * killed hard right after its 250th 202, while intake batches are committing. The decider's turn
 * (its advisory lock) is held by the test meanwhile, so every event answered 202 is still undecided
 * at the kill: a 202 means durable in the intake log, not yet decided. After a restart on
 * the same database, the new process's decider decides what is left: every event answered 202 is
 * decided exactly once (its mark in exactly one timeline entry, and the occurrences of each key
 * equal to its events stored), and no event is decided twice, answered or not.
 */
describe('SIGKILL during event ingest', function () {
  this.timeout(240_000);
  let rig: FaultRig;

  before(async () => {
    rig = await FaultRig.create('ingest', { CHECK_LOCATIONS: 'none' });
  });
  after(() => rig?.close());

  it('decides every event answered 202 before the kill exactly once, after the restart', async () => {
    const first = await rig.start('first');
    const admin = await signUpAt(first.url, 'ingest');
    await rig.sql('UPDATE organizations SET incident_management_enabled = true WHERE id = $1', [admin.organizationId]);
    const { token } = await mustCall(first.url, 'POST', '/api/organization/tokens', 201, { token: admin.token, body: { name: 'tool' } });

    // The decider's turn held (as another process's decider would hold it): events are accepted, none decided.
    const holder = new pg.Client({ connectionString: rig.database.url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query(`SELECT pg_advisory_xact_lock(${0x494d4463}, 0)`);

    const acknowledged: string[] = [];
    let sent = 0;
    let failed = 0;
    let killing: Promise<void> | undefined;
    const sender = async (s: number) => {
      for (let n = 0; !killing; n++) {
        const mark = `${s}-${n}`;
        sent++;
        try {
          const response = await apiAt(first.url, 'POST', '/api/im/events', {
            token,
            body: {
              routing_key: 'r',
              event_action: 'trigger',
              dedup_key: `kill-${s}-${n % KEYS_PER_SENDER}`,
              payload: { summary: mark, source: 'tool', severity: 'error', custom_details: { mark } },
            },
          });
          if (response.status === 202) acknowledged.push(mark);
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
    const undecidedAtKill = Number((await rig.sql<{ n: string }>('SELECT count(*)::text AS n FROM im_event_intake'))[0]!.n);
    // Every event answered 202 was in the log, undecided, when the process died.
    expect(undecidedAtKill).to.be.at.least(acknowledged.length);
    await holder.query('COMMIT');
    await holder.end();

    const second = await rig.start('second');
    await waitFor(async () => (await rig.sql<{ n: string }>('SELECT count(*)::text AS n FROM im_event_intake'))[0]!.n === '0', {
      timeoutMs: 30_000,
      what: 'the accepted events decided after the restart',
    });
    const marks = await rig.sql<{ mark: string; times: string }>(
      `SELECT t.details->'event'->'custom_details'->>'mark' AS mark, count(*)::text AS times
         FROM im_incident_timeline t JOIN im_incidents i ON i.id = t.incident_id
        WHERE i.organization_id = $1 AND t.kind IN ('triggered', 'occurrence')
        GROUP BY 1`,
      [admin.organizationId],
    );
    const decided = new Map(marks.map((row) => [row.mark, Number(row.times)]));
    const lost = acknowledged.filter((mark) => !decided.has(mark));
    expect(lost, `${lost.length} of ${acknowledged.length} acknowledged events lost (${failed} failed or cut off)`).to.deep.equal([]);
    const twice = marks.filter((row) => Number(row.times) !== 1);
    expect(twice, 'events decided more than once').to.deep.equal([]);
    // Each key's occurrences are its events decided, once each.
    const [counts] = await rig.sql<{ occurrences: string; entries: string }>(
      `SELECT (SELECT COALESCE(sum(occurrence_count), 0) FROM im_incidents WHERE organization_id = $1)::text AS occurrences,
              (SELECT count(*) FROM im_incident_timeline t JOIN im_incidents i ON i.id = t.incident_id
                WHERE i.organization_id = $1 AND t.kind IN ('triggered', 'occurrence'))::text AS entries`,
      [admin.organizationId],
    );
    expect(Number(counts!.occurrences)).to.equal(Number(counts!.entries));
    // The restarted process serves them too.
    const listed = await mustCall(second.url, 'GET', '/api/im/incidents', 200, { token: admin.token, query: { perPage: '1' } });
    expect(listed.total).to.equal(SENDERS * KEYS_PER_SENDER);
  });
});
