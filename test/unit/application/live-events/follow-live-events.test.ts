import { expect } from 'chai';
import sinon from 'sinon';
import { FollowLiveEvents } from '../../../../src/application/live-events/follow-live-events';
import { DEFAULT_LIVE_EVENT_LIMITS, type LiveEventLimits } from '../../../../src/application/live-events/ports';
import { anActor } from '../../../support/builders';
import { expectAppErrorAsync } from '../../../support/expect-app-error';
import { InMemoryLiveEventLog, ManualLiveEventSignals, RecordingSink } from '../../../support/fakes/live-events-fakes';

describe('FollowLiveEvents', () => {
  let clock: sinon.SinonFakeTimers;
  let log: InMemoryLiveEventLog;
  let signals: ManualLiveEventSignals;
  const limits: LiveEventLimits = { ...DEFAULT_LIVE_EVENT_LIMITS, streamsPerOrganization: 2, batchSize: 2, maxBufferedBytes: 100 };
  const follow = (overrides: Partial<LiveEventLimits> = {}) => new FollowLiveEvents(log, signals, { ...limits, ...overrides });
  const valid = () => Promise.resolve(true);
  /** Lets the stream's reads (promises) run. */
  const settle = () => clock.tickAsync(0);

  beforeEach(() => {
    clock = sinon.useFakeTimers();
    log = new InMemoryLiveEventLog();
    signals = new ManualLiveEventSignals();
  });
  afterEach(() => clock.restore());

  it('starts after the newest event without Last-Event-ID, and sends what is appended then, in order', async () => {
    log.append(1, 10);
    const sink = new RecordingSink();
    await follow().execute(anActor().inOrganization(1).build(), { lastEventId: null, stillValid: valid, sink });
    expect(sink.opened).to.equal(true);
    await settle();
    expect(sink.sent).to.deep.equal([]);
    const [a, b, c] = [log.append(1, 10), log.append(1, 11), log.append(1, 10)];
    signals.grew(1);
    await settle();
    expect(sink.sent.map((e) => e.id)).to.deep.equal([a.id, b.id, c.id]);
  });

  it('resumes after Last-Event-ID, reading round after round past the batch size', async () => {
    const ids = [1, 2, 3, 4, 5].map(() => log.append(1, 10).id);
    const sink = new RecordingSink();
    await follow().execute(anActor().inOrganization(1).build(), { lastEventId: ids[1]!, stillValid: valid, sink });
    await settle();
    expect(sink.sent.map((e) => e.id)).to.deep.equal(ids.slice(2));
  });

  it("sends a customer-bound caller only its customer's events, and never another organization's", async () => {
    const sink = new RecordingSink();
    await follow().execute(anActor().inOrganization(1).forCustomer(10).build(), { lastEventId: 0, stillValid: valid, sink });
    log.append(1, 11);
    log.append(2, 10);
    log.append(1, null);
    const own = log.append(1, 10);
    signals.grew(1);
    signals.grew(2);
    await settle();
    expect(sink.sent).to.deep.equal([own]);
  });

  it('refuses a stream beyond the bound of its organization (eventStreamLimitReached, retryAfter), and a stopped one frees its place', async () => {
    const useCase = follow();
    const admin = anActor().inOrganization(1).build();
    const first = await useCase.execute(admin, { lastEventId: null, stillValid: valid, sink: new RecordingSink() });
    await useCase.execute(admin, { lastEventId: null, stillValid: valid, sink: new RecordingSink() });
    const refused = new RecordingSink();
    await expectAppErrorAsync(
      () => useCase.execute(admin, { lastEventId: null, stillValid: valid, sink: refused }),
      'eventStreamLimitReached',
      {
        retryAfter: limits.retryAfterSeconds,
      },
    );
    expect(refused.opened).to.equal(false);
    await useCase.execute(anActor().inOrganization(2).build(), { lastEventId: null, stillValid: valid, sink: new RecordingSink() });
    first.stop();
    expect(useCase.openStreams(1)).to.equal(1);
    await useCase.execute(admin, { lastEventId: null, stillValid: valid, sink: new RecordingSink() });
  });

  it('ends the stream when its credential no longer holds (revoked), at the next check', async () => {
    let holds = true;
    const sink = new RecordingSink();
    const useCase = follow();
    await useCase.execute(anActor().inOrganization(1).build(), { lastEventId: null, stillValid: () => Promise.resolve(holds), sink });
    await clock.tickAsync(limits.recheckMs);
    expect(sink.ended).to.equal(undefined);
    expect(sink.keepAlives).to.equal(1);
    holds = false;
    await clock.tickAsync(limits.recheckMs);
    expect(sink.ended).to.equal('revoked');
    expect(useCase.openStreams(1)).to.equal(0);
    expect(signals.count).to.equal(0);
  });

  it('ends a stream whose client leaves too much unread (tooSlow), and any stream after its lifetime (maxDuration)', async () => {
    const slow = new RecordingSink();
    const useCase = follow();
    await useCase.execute(anActor().inOrganization(1).build(), { lastEventId: null, stillValid: valid, sink: slow });
    slow.unread = limits.maxBufferedBytes + 1;
    log.append(1, 10);
    signals.grew(1);
    await settle();
    expect(slow.ended).to.equal('tooSlow');

    const long = new RecordingSink();
    await useCase.execute(anActor().inOrganization(1).build(), { lastEventId: null, stillValid: valid, sink: long });
    await clock.tickAsync(limits.maxStreamMs);
    expect(long.ended).to.equal('maxDuration');
    expect(useCase.openStreams(1)).to.equal(0);
  });
});
