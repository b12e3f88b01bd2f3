import { expect } from 'chai';
import {
  channelFailingMessage,
  channelProblems,
  fallbackTarget,
  fallsBack,
  healthStatusOf,
  isFailingStreak,
} from '../../../../src/domain/notifications/channel-health';

const healthy = {
  consecutiveFailures: 0,
  lastFailureAt: null,
  lastFailureReason: null,
  lastSuccessAt: null,
  failingSince: null,
  isDefault: false,
};
const since = new Date('2026-12-12T10:00:00Z');

describe('channel health (domain)', () => {
  it('a channel is failing from the streak that reaches the threshold, and only once marked', () => {
    expect(isFailingStreak(2, { failingAfter: 3 })).to.equal(false);
    expect(isFailingStreak(3, { failingAfter: 3 })).to.equal(true);
    expect(healthStatusOf(healthy)).to.equal('healthy');
    expect(healthStatusOf({ ...healthy, consecutiveFailures: 1 }), 'one failed attempt').to.equal('degraded');
    expect(healthStatusOf({ ...healthy, consecutiveFailures: 5 }), 'not marked failing yet').to.equal('degraded');
    expect(healthStatusOf({ ...healthy, consecutiveFailures: 3, failingSince: since })).to.equal('failing');
  });

  it('falls back for alerts, never for a test, an announcement or a fallback (no chains)', () => {
    expect(fallsBack('incident.opened', false)).to.equal(true);
    expect(fallsBack('incident.digest', false)).to.equal(true);
    expect(fallsBack('alert.manual', false)).to.equal(true);
    expect(fallsBack('test', false)).to.equal(false);
    expect(fallsBack('channel.failing', false)).to.equal(false);
    expect(fallsBack('incident.opened', true)).to.equal(false);
  });

  it('the fallback is the enabled default, unless it is the failing channel itself', () => {
    const byDefault = { id: 7, enabled: true };
    expect(fallbackTarget(3, byDefault)).to.equal(byDefault);
    expect(fallbackTarget(7, byDefault)).to.equal(null);
    expect(fallbackTarget(3, { id: 7, enabled: false })).to.equal(null);
    expect(fallbackTarget(3, null)).to.equal(null);
  });

  it('lists a failing channel as a problem, saying where its messages go', () => {
    expect(channelProblems(healthy)).to.deep.equal([]);
    const failing = { ...healthy, consecutiveFailures: 4, failingSince: since, lastFailureReason: 'Answered 500 (after 8 attempts)' };
    expect(channelProblems(failing)).to.deep.equal([
      {
        code: 'channelFailing',
        since,
        message:
          "4 attempts in a row failed (they are sent to the organization's default channel, if it has one); last: Answered 500 (after 8 attempts)",
      },
    ]);
    expect(channelProblems({ ...failing, isDefault: true })[0]!.message).to.include('this is the default channel');
  });

  it('the announcement names the channel, the streak and the last reason', () => {
    const message = channelFailingMessage(
      { publicId: 'c-1', name: 'on-call hook', type: 'webhook', customerId: 10 },
      { consecutiveFailures: 3, lastFailureReason: 'Answered 410' },
      since,
    );
    expect(message).to.deep.equal({
      event: 'channel.failing',
      occurredAt: since.toISOString(),
      incidentId: null,
      monitorId: null,
      customerId: null,
      summary: 'Notification channel "on-call hook" is failing: 3 attempts in a row failed (last: Answered 410)',
      data: {
        channelId: 'c-1',
        channelName: 'on-call hook',
        channelType: 'webhook',
        channelCustomerId: 10,
        consecutiveFailures: 3,
        lastFailureReason: 'Answered 410',
        failingSince: since.toISOString(),
      },
    });
  });
});
