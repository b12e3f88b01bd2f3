import { expect } from 'chai';
import { NotificationChannel } from '../../../../src/domain/notifications/notification-channel';
import type { NotificationMessage } from '../../../../src/domain/notifications/notification-message';
import { SmsChannelSender } from '../../../../src/application/notifications/sms-channel-sender';
import { FakeSmsProvider, FakeSmsQuota } from '../../../support/fakes/notifications-fakes';
import { ManualClock } from '../../../support/manual-clock';

const MONTH = '2026-12-01';
const message: NotificationMessage = {
  id: 'd-1',
  event: 'incident.opened',
  occurredAt: '2026-12-01T09:59:00.000Z',
  summary: 'shop.example.com is down',
  incidentId: 'inc-1',
  monitorId: 100,
  customerId: 10,
  data: {},
};

function anSmsChannel(customerId: number | null, phoneNumbers: string[]) {
  return new NotificationChannel({
    publicId: 'ch-1',
    organizationId: 1,
    scope: { customerId, monitorId: null, sourceChannelId: null },
    name: 'pager',
    type: 'sms',
    config: { phoneNumbers },
    now: new Date('2026-12-01T00:00:00Z'),
  });
}

function senderHarness(allowance: number) {
  const provider = new FakeSmsProvider();
  const quota = new FakeSmsQuota();
  quota.allowances.set(10, allowance);
  const sender = new SmsChannelSender(provider, quota, new ManualClock(new Date('2026-12-01T10:00:00Z')));
  return { provider, quota, sender };
}

describe('SMS channel sender (allowance rule)', () => {
  it("sends one message per number and counts each against the customer's month", async () => {
    const h = senderHarness(5);
    const outcome = await h.sender.send(anSmsChannel(10, ['+14155550100', '+14155550101']), message);
    expect(outcome).to.include({ verdict: 'delivered', error: null });
    expect(h.provider.sent).to.deep.equal([
      { to: '+14155550100', text: 'Incident opened: shop.example.com is down' },
      { to: '+14155550101', text: 'Incident opened: shop.example.com is down' },
    ]);
    expect(h.quota.usedIn(10, MONTH)).to.equal(2);
  });

  it('sends up to the allowance exactly', async () => {
    const h = senderHarness(2);
    expect((await h.sender.send(anSmsChannel(10, ['+14155550100', '+14155550101']), message)).verdict).to.equal('delivered');
    expect(h.quota.usedIn(10, MONTH)).to.equal(2);
  });

  it('refuses for good with smsAllowanceExhausted when the numbers do not fit what is left, sending none', async () => {
    const h = senderHarness(3);
    await h.sender.send(anSmsChannel(10, ['+14155550100', '+14155550101']), message);
    const outcome = await h.sender.send(anSmsChannel(10, ['+14155550100', '+14155550101']), message);
    expect(outcome.verdict).to.equal('rejected');
    expect(outcome.error).to.equal('smsAllowanceExhausted: 2 of 3 SMS this month used, 2 needed');
    expect(h.provider.sent).to.have.length(2);
    expect(h.quota.usedIn(10, MONTH)).to.equal(2);
  });

  it('a package without SMS (allowance 0) sends nothing', async () => {
    const h = senderHarness(0);
    const outcome = await h.sender.send(anSmsChannel(10, ['+14155550100']), message);
    expect(outcome.error).to.match(/^smsAllowanceExhausted/);
    expect(h.provider.sent).to.deep.equal([]);
  });

  it('gives back the numbers the provider did not take, so the month counts messages sent', async () => {
    const h = senderHarness(5);
    h.provider.scripts.set('+14155550101', [{ verdict: 'retry', statusCode: 503, error: 'Answered 503', retryAfterMs: 2_000 }]);
    const outcome = await h.sender.send(anSmsChannel(10, ['+14155550100', '+14155550101']), message);
    expect(outcome).to.include({ verdict: 'retry', statusCode: 503, retryAfterMs: 2_000 });
    expect(outcome.error).to.equal('1 of 2 SMS not sent: Answered 503');
    expect(h.quota.usedIn(10, MONTH)).to.equal(1);
  });

  it('a refusal of one number (no retry pending) fails the delivery for good', async () => {
    const h = senderHarness(5);
    h.provider.scripts.set('+14155550100', [{ verdict: 'rejected', statusCode: 400, error: 'Twilio 21211: invalid To' }]);
    const outcome = await h.sender.send(anSmsChannel(10, ['+14155550100']), message);
    expect(outcome).to.include({ verdict: 'rejected', statusCode: 400 });
    expect(h.quota.usedIn(10, MONTH)).to.equal(0);
  });

  it("an organization's own channel (no customer) is not limited nor counted", async () => {
    const h = senderHarness(0);
    const outcome = await h.sender.send(anSmsChannel(null, ['+14155550100']), message);
    expect(outcome.verdict).to.equal('delivered');
    expect(h.provider.sent).to.have.length(1);
    expect(h.quota.used.size).to.equal(0);
  });
});
