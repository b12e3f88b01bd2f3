import { expect } from 'chai';
import { ManualClock } from '../../../support/manual-clock';
import { codeOf, expectAppErrorAsync } from '../../../support/expect-app-error';
import { FakeSharedRateCounter, sequentialIds } from '../../../support/fakes/shared-fakes';
import { FakeImEventBatchStore, FakeImIncidents } from '../../../support/fakes/incident-management-fakes';
import { AdmitImEvent } from '../../../../src/application/incident-management/admit-im-event';
import { CommitImEvents } from '../../../../src/application/incident-management/commit-im-events';

const scope = { organizationId: 1, customerId: null };

describe('admitting IM events', () => {
  it('refuses past the limit with retryAfter, and then without asking the shared counter until the window ends', async () => {
    const counter = new FakeSharedRateCounter();
    const clock = new ManualClock(new Date('2026-11-25T10:00:30.000Z'));
    const admit = new AdmitImEvent(counter, clock, { name: 'im-events', limit: 2, windowSeconds: 60 });
    await admit.execute(1);
    await admit.execute(1);
    await expectAppErrorAsync(admit.execute(1), 'imEventRateLimited', { retryAfter: 30 });
    clock.advance(10_000);
    await expectAppErrorAsync(admit.execute(1), 'imEventRateLimited', { retryAfter: 20 });
    await admit.write();
    expect(counter.total('im-events', '1')).to.equal(2);
    const writes = counter.adds;
    await expectAppErrorAsync(admit.execute(1), 'imEventRateLimited', { retryAfter: 20 });
    expect(counter.adds).to.equal(writes);
    expect(await codeOf(admit.execute(2))).to.equal(undefined);
    clock.advance(20_000);
    expect(await codeOf(admit.execute(1))).to.equal(undefined);
  });
});

describe('processing IM events', () => {
  let incidents: FakeImIncidents;
  // The way every event is applied (the events API and alert sources): the group committer, here one event at a time.
  let process: CommitImEvents;
  beforeEach(() => {
    incidents = new FakeImIncidents();
    process = new CommitImEvents(new FakeImEventBatchStore(incidents), sequentialIds(), new ManualClock());
  });
  const trigger = (dedupKey?: string) =>
    process.execute(scope, { action: 'trigger', dedupKey, summary: 'Disk full', severity: 'error', source: 'db-1', details: {} });

  it('opens one incident per open dedup key and counts repeats as occurrences', async () => {
    expect((await trigger('k')).outcome).to.equal('created');
    expect((await trigger('k')).outcome).to.equal('occurrence');
    expect([...incidents.rows.values()].map((i) => [i.dedupKey, i.occurrenceCount, i.title, i.severity])).to.deep.equal([
      ['k', 2, 'Disk full', 'error'],
    ]);
  });

  it('acknowledges and resolves by key; ignores unknown keys and repeated acknowledgements', async () => {
    await trigger('k');
    expect((await process.execute(scope, { action: 'acknowledge', dedupKey: 'k', details: {} })).outcome).to.equal('acknowledged');
    expect((await process.execute(scope, { action: 'acknowledge', dedupKey: 'k', details: {} })).outcome).to.equal('ignored');
    expect((await process.execute(scope, { action: 'resolve', dedupKey: 'k', details: {} })).outcome).to.equal('resolved');
    expect((await process.execute(scope, { action: 'resolve', dedupKey: 'k', details: {} })).outcome).to.equal('ignored');
    expect((await trigger('k')).outcome).to.equal('created');
  });

  it('retries a resolve that lost a race with a person', async () => {
    await trigger('k');
    incidents.concurrentWriteOnNextSave = true;
    expect((await process.execute(scope, { action: 'resolve', dedupKey: 'k', details: {} })).outcome).to.equal('resolved');
  });

  it('keeps dedup keys apart per organization', async () => {
    await trigger('k');
    expect(
      (await process.execute({ organizationId: 2, customerId: null }, { action: 'trigger', dedupKey: 'k', summary: 's', details: {} }))
        .outcome,
    ).to.equal('created');
  });
});
