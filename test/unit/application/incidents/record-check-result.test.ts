import { aCheckResultWorld } from '../../../support/builders/incidents';
import { expect } from 'chai';
import type { CheckStatus } from '../../../../src/domain/results/check-status';
import { aPolicy } from '../../../support/fakes/incidents-fakes';
import { ManualClock } from '../../../support/manual-clock';
import { aResult } from '../../../support/builders';

const t0 = new Date('2026-11-22T10:00:00Z');
const clock = new ManualClock('2026-11-22T12:00:00Z');

/** Monitor 7 of customer 2 alerting on `policy` (overrides of aPolicy()); `feed` records one result from `eu` at a minute from t0. */
function aFeedWorld(options: { suppressed?: boolean; policy?: Parameters<typeof aPolicy>[0] } = {}) {
  const world = aCheckResultWorld({ clock, ...options });
  const feed = (status: CheckStatus, minute: number) =>
    world.useCase.execute({
      monitorId: 7,
      organizationId: 1,
      customerId: 2,
      location: 'eu',
      intervalMs: 60_000,
      result: aResult(status, new Date(t0.getTime() + minute * 60_000), {
        timings: { dnsMs: 1, connectMs: 2, tlsMs: 3, firstByteMs: 4, totalMs: status === 'down' ? null : 99.6 },
      }),
    });
  return { ...world, feed };
}

describe('RecordCheckResult', () => {
  it('stores the result, opens the automatic incident with its timeline and publishes incidentOpened', async () => {
    const { results, incidents, events, feed } = aFeedWorld();
    const outcome = await feed('down', 0);
    expect(outcome).to.deep.equal({ recorded: true, decisions: ['open'], openIncidentId: 1 });
    expect(results.rows[0]).to.deep.include({ status: 'down', reasonCode: 'timeout', responseTimeMs: null, location: 'eu' });
    expect(incidents.rows.get(1)).to.deep.include({
      origin: 'automatic',
      status: 'open',
      title: 'Shop is down',
      causeReasonCode: 'timeout',
      startedAt: t0,
    });
    expect(incidents.entries.map((e) => e.kind)).to.deep.equal(['opened', 'locationReport']);
    expect(events.published).to.have.length(1);
    expect(events.published[0]).to.deep.include({
      kind: 'incidentOpened',
      incidentPublicId: 'uuid-1',
      organizationId: 1,
      customerId: 2,
      monitorId: 7,
    });
  });

  it('resolves on recovery and publishes incidentResolved with the duration', async () => {
    const { incidents, events, feed } = aFeedWorld();
    await feed('down', 0);
    const outcome = await feed('up', 3);
    expect(outcome.decisions).to.deep.equal(['resolve']);
    expect(incidents.rows.get(1)).to.include({ status: 'resolved', resolvedByUserId: null });
    expect(events.published.map((e) => e.kind)).to.deep.equal(['incidentOpened', 'incidentResolved']);
    expect(events.published[1]!.data).to.include({ durationSeconds: 180 });
  });

  it('mutes reminders once the incident is acknowledged', async () => {
    const { incidents, events, feed } = aFeedWorld({ policy: { reminderIntervalMinutes: 1 } });
    await feed('down', 0);
    await feed('down', 1);
    incidents.rows.get(1)!.acknowledge('u1', clock.now());
    await feed('down', 2);
    await feed('down', 3);
    expect(events.published.map((e) => e.kind)).to.deep.equal(['incidentOpened', 'reminderDue']);
  });

  it('stores results but opens nothing while a maintenance window suppresses alerts', async () => {
    const { results, incidents, events, feed } = aFeedWorld({ suppressed: true });
    await feed('down', 0);
    await feed('down', 1);
    expect(results.rows).to.have.length(2);
    expect(incidents.rows.size).to.equal(0);
    expect(events.published).to.deep.equal([]);
  });

  it('drops the result of a monitor that no longer exists', async () => {
    const { monitors, results, feed } = aFeedWorld();
    monitors.monitor = null;
    expect(await feed('down', 0)).to.deep.equal({ recorded: false, decisions: [], openIncidentId: null });
    expect(results.rows).to.have.length(0);
  });

  it('keeps timings and evidence of up results only as a sample', async () => {
    const { results, feed } = aFeedWorld();
    for (let m = 0; m <= 120; m += 1) await feed('up', m);
    const kept = results.rows.filter((r) => r.detail !== null).map((r) => r.checkedAt.getTime());
    expect(kept, 'the first up, then one an hour').to.have.length(3);
    expect(kept[0]).to.equal(results.rows[0]!.checkedAt.getTime());
    expect(kept[2]! - kept[1]!).to.equal(60 * 60_000);
    expect(results.rows[0]).to.deep.include({ responseTimeMs: 100 });
  });
});
