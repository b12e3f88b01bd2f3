import { expect } from 'chai';
import { CHANNEL_EVENTS } from '../../../../src/domain/notifications/channel-events';
import {
  type NewChannel,
  NotificationChannel,
  assertOverridable,
  assertRecipientsFree,
} from '../../../../src/domain/notifications/notification-channel';
import { expectAppError } from '../../../support/expect-app-error';

const NOW = new Date('2026-12-01T10:00:00Z');
const LATER = new Date('2026-12-01T11:00:00Z');
let n = 0;

function aChannel(over: Partial<NewChannel> = {}, id = ++n): NotificationChannel {
  const channel = new NotificationChannel({
    publicId: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    organizationId: 1,
    scope: { customerId: null, monitorId: null, sourceChannelId: null },
    name: 'c',
    type: 'email',
    config: { recipients: ['ops@example.com'] },
    now: NOW,
    ...over,
  });
  channel.id = id;
  return channel;
}

describe('notification channel', () => {
  it('receives every event when created without a list, and keeps a chosen list in the canonical order', () => {
    expect(aChannel().events).to.deep.equal([...CHANNEL_EVENTS]);
    expect(aChannel({ events: ['incident.resolved', 'incident.opened'] }).events).to.deep.equal(['incident.opened', 'incident.resolved']);
  });

  it('refuses an empty event list', () => {
    expectAppError(() => aChannel({ events: [] }), 'invalidRequestBody', { field: 'events' });
  });

  it('needs a config to change type (configRequiredForTypeChange), and changes nothing when refused', () => {
    const channel = aChannel();
    expectAppError(() => channel.update({ type: 'sms' }, LATER), 'configRequiredForTypeChange', { from: 'email', to: 'sms' });
    expect(channel.type).to.equal('email');
    expect(channel.updatedAt).to.equal(NOW);
  });

  it('changes type with a config of the new type, and a same-type update needs none', () => {
    const channel = aChannel();
    channel.update({ type: 'email', name: 'renamed' }, LATER);
    expect(channel).to.include({ type: 'email', name: 'renamed', updatedAt: LATER });
    channel.update({ type: 'sms', config: { phoneNumbers: ['+14155550100'] } }, LATER);
    expect(channel.type).to.equal('sms');
    expect(channel.config).to.deep.equal({ phoneNumbers: ['+14155550100'] });
  });

  it('drops the sealed secret when a webhook becomes another type', () => {
    const channel = aChannel({ type: 'webhook', config: { url: 'https://hooks.example.com/' } });
    channel.secretCiphertext = 'sealed';
    channel.update({ type: 'slack', config: { url: 'https://hooks.example.com/' } }, LATER);
    expect(channel.secretCiphertext).to.equal(null);
  });

  describe('recipients', () => {
    it('clash with an enabled channel of the same type and scope: notificationChannelRecipientExists with its id', () => {
      const existing = aChannel({ config: { recipients: ['a@example.com', 'ops@example.com'] } });
      expectAppError(() => assertRecipientsFree(aChannel(), [existing]), 'notificationChannelRecipientExists', { channelId: existing.id });
    });

    it('do not clash across types, scopes, with disabled channels, with itself, or while the new channel is disabled', () => {
      const mine = aChannel();
      const others = [
        aChannel({ type: 'webhook', config: { url: 'https://ops.example.com/' } }),
        aChannel({ scope: { customerId: 7, monitorId: null, sourceChannelId: null } }),
        aChannel({ enabled: false }),
        aChannel({ config: { recipients: ['someone@example.com'] } }),
      ];
      assertRecipientsFree(mine, [...others, mine]);
      assertRecipientsFree(aChannel({ enabled: false }), [aChannel()]);
    });

    it("are a type's own recipient fields: ntfy channels on one server clash by topic only", () => {
      const ntfy = (topic: string) =>
        aChannel({ type: 'ntfy', config: { url: 'https://ntfy.sh/', topic, token: null, messagePrefix: null } });
      const existing = ntfy('ops');
      assertRecipientsFree(ntfy('billing'), [existing]);
      expectAppError(() => assertRecipientsFree(ntfy('ops'), [existing]), 'notificationChannelRecipientExists', { channelId: existing.id });
    });
  });

  describe('overrides', () => {
    const monitor = { id: 50, customerId: 7 };

    it("may replace an organization channel or a channel of the monitor's customer", () => {
      assertOverridable(aChannel(), monitor, []);
      assertOverridable(aChannel({ scope: { customerId: 7, monitorId: null, sourceChannelId: null } }), monitor, []);
    });

    it("refuses another customer's channel and an override as source (invalidSourceChannelId)", () => {
      expectAppError(
        () => assertOverridable(aChannel({ scope: { customerId: 8, monitorId: null, sourceChannelId: null } }), monitor, []),
        'invalidSourceChannelId',
        { reason: 'otherCustomer' },
      );
      expectAppError(
        () => assertOverridable(aChannel({ scope: { customerId: 7, monitorId: 50, sourceChannelId: 1 } }), monitor, []),
        'invalidSourceChannelId',
        { reason: 'sourceIsOverride' },
      );
    });

    it('are one per monitor and source (websiteChannelOverrideExists with the existing id)', () => {
      const source = aChannel();
      const existing = aChannel({ scope: { customerId: 7, monitorId: 50, sourceChannelId: source.id } });
      expectAppError(() => assertOverridable(source, monitor, [existing]), 'websiteChannelOverrideExists', { channelId: existing.id });
      assertOverridable(source, { id: 51, customerId: 7 }, [existing]);
    });
  });
});
