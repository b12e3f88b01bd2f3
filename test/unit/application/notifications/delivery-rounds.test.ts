import { expect } from 'chai';
import sinon from 'sinon';
import { anActor } from '../../../support/builders';
import { FakeDeliveryLedger, FakeNotificationSender, sendersWith } from '../../../support/fakes/notifications-fakes';
import { DeliverDueNotifications, type DeliverySettings } from '../../../../src/application/notifications/deliver-due-notifications';
import { SETTLE_WINDOW_MS } from '../../../../src/application/notifications/settle-batches';
import type { NotificationChannel } from '../../../../src/domain/notifications/notification-channel';
import type { NotificationMessage } from '../../../../src/domain/notifications/notification-message';
import type { NotificationSender, SendOutcome } from '../../../../src/application/notifications/ports';
import { harness } from './harness';

const SETTINGS: DeliverySettings = { baseMs: 1_000, maxMs: 60_000, maxAttempts: 3, leaseMs: 30_000, batch: 50 };

/** A receiver that answers only when the test lets it (a slow one), recording what reached it. */
class HeldSender implements NotificationSender {
  readonly sent: string[] = [];
  private readonly answers: Array<() => void> = [];

  async send(_channel: NotificationChannel, message: NotificationMessage): Promise<SendOutcome> {
    this.sent.push(message.id);
    await new Promise<void>((resolve) => this.answers.push(resolve));
    return { verdict: 'delivered', statusCode: 200, responseExcerpt: 'ok', retryAfterMs: null, error: null, latencyMs: 9_000 };
  }

  answerAll(): void {
    for (const answer of this.answers.splice(0)) answer();
  }
}

function roundHarness() {
  const h = harness();
  const ledger = new FakeDeliveryLedger(h.channels);
  const fast = new FakeNotificationSender();
  const slow = new HeldSender();
  const deliver = new DeliverDueNotifications(
    ledger,
    h.channels,
    sendersWith({ webhook: fast, slack: slow }),
    h.secrets,
    SETTINGS,
    h.clock,
    { notificationDelivery: () => undefined },
    () => 0.5,
  );
  const channel = async (type: 'webhook' | 'slack', name: string) =>
    (
      await h.create.execute(anActor().build(), {
        name,
        type,
        config: { url: type === 'slack' ? `https://hooks.slack.com/${name}` : `https://hooks.example.com/${name}` },
      })
    ).channel;
  let outbox = 1;
  const deliveriesTo = (target: NotificationChannel, count: number) =>
    Array.from({ length: count }, () =>
      ledger.addDelivery(
        1,
        outbox++,
        { id: target.id!, publicId: target.publicId, type: target.type },
        {
          event: 'incident.opened',
          occurredAt: '2026-12-01T09:59:00.000Z',
          summary: 'down',
          incidentId: `inc-${outbox}`,
          monitorId: 100,
          customerId: null,
          data: {},
        },
        h.clock.now(),
      ),
    );
  const statusOf = (id: string) => ledger.deliveries.find((d) => d.id === id)!.status;
  return { ...h, ledger, fast, slow, deliver, channel, deliveriesTo, statusOf };
}

describe('a delivery round: all sent at once, recorded in batches as they finish', () => {
  let timers: sinon.SinonFakeTimers;
  beforeEach(() => {
    timers = sinon.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => timers.restore());

  it("records a fast receiver's deliveries while a slow receiver of the same round has not answered yet", async () => {
    const h = roundHarness();
    const fastIds = h.deliveriesTo(await h.channel('webhook', 'fast'), 3);
    const slowIds = h.deliveriesTo(await h.channel('slack', 'slow'), 2);

    const round = h.deliver.execute('w1');
    await timers.tickAsync(SETTLE_WINDOW_MS);
    expect(h.slow.sent, 'the slow receiver has its requests').to.have.length(2);
    expect(fastIds.map(h.statusOf), "the fast receiver's are recorded").to.deep.equal(['delivered', 'delivered', 'delivered']);
    expect(slowIds.map(h.statusOf)).to.deep.equal(['pending', 'pending']);
    expect(h.ledger.settleBatches, 'one statement for the three').to.deep.equal([fastIds]);

    h.slow.answerAll();
    const settled = await round;
    expect(slowIds.map(h.statusOf)).to.deep.equal(['delivered', 'delivered']);
    expect(h.ledger.settleBatches, 'the slow ones in a batch of their own').to.deep.equal([fastIds, slowIds]);
    expect(settled.map((s) => [s.id, s.settled])).to.deep.equal([...fastIds, ...slowIds].map((id) => [id, true]));
  });

  it('records a round whose receivers all answered in one statement, retries and failures with it, its channels read once', async () => {
    const h = roundHarness();
    const hook = await h.channel('webhook', 'all');
    h.fast.scripts.set(hook.publicId, [{}, { verdict: 'retry', statusCode: 503 }, {}, { verdict: 'rejected', statusCode: 410 }]);
    const ids = h.deliveriesTo(hook, 10);
    const settled = await h.deliver.execute('w1');
    expect(h.ledger.settleBatches).to.deep.equal([ids]);
    expect(h.channels.publicIdQueries, "the round's channels read in one question").to.equal(1);
    expect(settled.map((s) => s.next.status)).to.deep.equal(['delivered', 'pending', 'delivered', 'failed', ...Array(6).fill('delivered')]);
    expect(
      h.channels.rows.get(hook.id!)!.consecutiveFailures,
      "the channel's streak after the last failure: delivered ones came after it",
    ).to.equal(0);
  });

  it('answers settled false for a delivery another worker took meanwhile, and records the rest', async () => {
    const h = roundHarness();
    const ids = h.deliveriesTo(await h.channel('slack', 'taken'), 2);
    const round = h.deliver.execute('w1');
    await timers.tickAsync(0);
    // w1's lease on the first lapsed and w2 claimed it again before w1's attempt was recorded
    Object.assign(
      h.ledger.deliveries.find((d) => d.id === ids[0])!,
      { leaseOwner: 'w2' },
    );
    h.slow.answerAll();
    const settled = await round;
    expect(settled.map((s) => s.settled)).to.deep.equal([false, true]);
    expect(h.ledger.deliveries.find((d) => d.id === ids[0])).to.deep.include({ status: 'pending', leaseOwner: 'w2', attempts: [] });
  });

  it('sends no delivery twice when a round beside a slow one finds its lease lapsed: the send in flight keeps it and records it', async () => {
    const h = roundHarness();
    const [id] = h.deliveriesTo(await h.channel('slack', 'slower-than-its-lease'), 1);
    // Each round leases under a name of its own, as the worker's do (<owner>#<round>).
    const first = h.deliver.execute('w1#1');
    await timers.tickAsync(0);
    expect(h.slow.sent).to.have.length(1);
    h.clock.advance(SETTINGS.leaseMs + 1);
    expect(await h.deliver.msUntilDue(), 'a lapsed lease of a send in flight is no work to wake for').to.equal(null);
    expect(await h.deliver.execute('w1#2'), 'left to the send in flight').to.deep.equal([]);
    expect(
      h.ledger.deliveries.find((d) => d.id === id),
      'not leased anew',
    ).to.deep.include({ leaseOwner: 'w1#1' });
    expect(h.slow.sent, 'sent once').to.have.length(1);
    h.slow.answerAll();
    expect((await first).map((s) => [s.id, s.settled])).to.deep.equal([[id, true]]);
    expect(h.statusOf(id!)).to.equal('delivered');
    h.clock.advance(SETTINGS.leaseMs + 1);
    expect(await h.deliver.execute('w1#3'), 'recorded: nothing to claim, ever').to.deep.equal([]);
    expect(h.slow.sent, 'still once').to.have.length(1);
  });

  it('leaves a delivery a round is sending to that round when the test button asks for it', async () => {
    const h = roundHarness();
    const [id] = h.deliveriesTo(await h.channel('slack', 'slow-button'), 1);
    const first = h.deliver.execute('w1#1');
    await timers.tickAsync(0);
    h.clock.advance(SETTINGS.leaseMs + 1);
    expect(await h.deliver.deliverNow(`test-button:${id}`, id!)).to.equal(null);
    h.slow.answerAll();
    expect((await first).map((s) => [s.id, s.settled])).to.deep.equal([[id, true]]);
    expect(h.slow.sent, 'sent once').to.have.length(1);
  });

  it('the test button sends nothing a round here is still sending, its lease lapsed', async () => {
    const h = roundHarness();
    const [id] = h.deliveriesTo(await h.channel('slack', 'in-flight'), 1);
    const round = h.deliver.execute('w1');
    await timers.tickAsync(0);
    h.clock.advance(SETTINGS.leaseMs + 1);
    expect(await h.deliver.deliverNow('w1', id!)).to.equal(null);
    expect(h.slow.sent, 'sent once').to.have.length(1);
    h.slow.answerAll();
    expect((await round).map((s) => [s.id, s.settled])).to.deep.equal([[id, true]]);
  });

  it("keeps the test button's single delivery path: its attempt recorded by itself, at once", async () => {
    const h = roundHarness();
    const [id] = h.deliveriesTo(await h.channel('webhook', 'button'), 1);
    const result = await h.deliver.deliverNow('w1', id!);
    expect(result).to.deep.include({ id, settled: true });
    expect(h.statusOf(id!)).to.equal('delivered');
    expect(h.ledger.settleBatches, 'not through a batch').to.deep.equal([]);
  });
});
