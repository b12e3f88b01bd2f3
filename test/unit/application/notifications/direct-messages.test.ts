import { expect } from 'chai';
import { directSendersWith, FakeDirectDeliveries, FakeDirectSender } from '../../../support/fakes/notifications-fakes';
import { ManualClock } from '../../../support/manual-clock';
import { DeliverDueDirectMessages } from '../../../../src/application/notifications/deliver-due-direct-messages';
import type { DeliverySettings } from '../../../../src/application/notifications/deliver-due-notifications';
import type { DirectMessage } from '../../../../src/application/notifications/ports';
import type { DeliveryOutcome } from '../../../../src/application/observability/ports';

const SETTINGS: DeliverySettings = { baseMs: 1_000, maxMs: 60_000, maxAttempts: 3, leaseMs: 30_000, batch: 10 };

function directHarness() {
  const clock = new ManualClock(new Date('2026-12-01T10:00:00Z'));
  const queue = new FakeDirectDeliveries();
  const email = new FakeDirectSender();
  const outcomes: DeliveryOutcome[] = [];
  const metrics = {
    notificationDelivery: (outcome: DeliveryOutcome) => {
      outcomes.push(outcome);
    },
  };
  const deliver = new DeliverDueDirectMessages(queue, queue, directSendersWith({ email }), SETTINGS, clock, metrics, () => 0.5);
  const aMessage = (over: Partial<DirectMessage> = {}): DirectMessage => ({
    organizationId: 1,
    customerId: null,
    recipient: { type: 'email', address: 'reader@example.com' },
    event: 'report.ready',
    subject: 'Report',
    text: 'Attached',
    dedupKey: 'report-1',
    ...over,
  });
  return { clock, queue, email, outcomes, deliver, aMessage };
}

describe('direct messages (subscribers, readers, people paged)', () => {
  it('sends a due message once and records it delivered', async () => {
    const h = directHarness();
    const [id] = await h.queue.enqueue([h.aMessage()], h.clock.now());
    const settled = await h.deliver.execute('worker');
    expect(settled.map((s) => [s.id, s.next.status, s.settled])).to.deep.equal([[id, 'delivered', true]]);
    expect(h.email.sent.map((d) => [d.recipient, d.content.subject])).to.deep.equal([
      [{ type: 'email', address: 'reader@example.com' }, 'Report'],
    ]);
    expect(await h.deliver.execute('worker')).to.deep.equal([]);
    expect(h.outcomes).to.deep.equal(['delivered']);
  });

  it('sends no message twice when a round claims it again while its send outlasts the lease', async () => {
    const h = directHarness();
    const [id] = await h.queue.enqueue([h.aMessage()], h.clock.now());
    let answer: () => void = () => undefined;
    const send = h.email.sendDirect.bind(h.email);
    h.email.sendDirect = async (delivery) => {
      await new Promise<void>((resolve) => (answer = resolve));
      return send(delivery);
    };
    // Each round leases under a name of its own, as the worker's do (<owner>#<round>).
    const first = h.deliver.execute('worker#1');
    await new Promise((resolve) => setImmediate(resolve));
    h.clock.advance(SETTINGS.leaseMs + 1);
    expect(await h.deliver.execute('worker#2'), 'left to the send in flight').to.deep.equal([]);
    answer();
    expect((await first).map((s) => [s.id, s.next.status, s.settled])).to.deep.equal([[id, 'delivered', true]]);
    h.clock.advance(SETTINGS.leaseMs + 1);
    expect(await h.deliver.execute('worker#3'), 'recorded: nothing to claim, ever').to.deep.equal([]);
    expect(h.email.sent, 'sent once').to.have.length(1);
  });

  it('retries after a temporary failure with back-off, and fails after the last attempt', async () => {
    const h = directHarness();
    h.email.script.push(
      { verdict: 'retry', statusCode: 451, error: 'try later' },
      { verdict: 'retry', statusCode: 451, error: 'try later' },
      { verdict: 'retry', statusCode: 451, error: 'try later' },
    );
    await h.queue.enqueue([h.aMessage()], h.clock.now());
    const [first] = await h.deliver.execute('worker');
    expect(first!.next).to.deep.equal({ status: 'pending', nextAttemptAt: new Date('2026-12-01T10:00:00.750Z') });
    expect(await h.deliver.execute('worker')).to.deep.equal([]);
    h.clock.advance(750);
    await h.deliver.execute('worker');
    h.clock.advance(60_000);
    const [last] = await h.deliver.execute('worker');
    expect(last!.next).to.deep.equal({ status: 'failed', reason: 'try later (after 3 attempts)' });
    expect(h.queue.rows[0]!.attempts.map((a) => a.outcome)).to.deep.equal(['retry', 'retry', 'failed']);
    expect(h.outcomes).to.deep.equal(['failed']);
  });

  it('fails at once a message whose kind of recipient has no sender here', async () => {
    const h = directHarness();
    await h.queue.enqueue([h.aMessage({ recipient: { type: 'sms', phone: '+4915112345678' }, dedupKey: 'page-1' })], h.clock.now());
    const [settled] = await h.deliver.execute('worker');
    expect(settled!.next).to.deep.equal({ status: 'failed', reason: 'No sender for sms messages is configured' });
    expect(h.email.sent).to.deep.equal([]);
  });
});
