import { expect } from 'chai';
import { CHANNEL_EVENTS, type ChannelEvent } from '../../../../src/domain/notifications/channel-events';
import { type ChannelEventOccurrence, type RoutableChannel, channelsToNotify } from '../../../../src/domain/notifications/channel-routing';

const ORG = 1;
const CUSTOMER = 10;
const MONITOR = 100;

const channel = (id: number, over: Partial<RoutableChannel> = {}): RoutableChannel => ({
  id,
  organizationId: ORG,
  customerId: null,
  monitorId: null,
  sourceChannelId: null,
  enabled: true,
  events: [...CHANNEL_EVENTS],
  ...over,
});
const forCustomer = (id: number, customerId = CUSTOMER, over: Partial<RoutableChannel> = {}) => channel(id, { customerId, ...over });
const overrideOf = (id: number, sourceChannelId: number, over: Partial<RoutableChannel> = {}) =>
  channel(id, { customerId: CUSTOMER, monitorId: MONITOR, sourceChannelId, ...over });
const event = (kind: ChannelEvent = 'incident.opened', over: Partial<ChannelEventOccurrence> = {}): ChannelEventOccurrence => ({
  kind,
  organizationId: ORG,
  customerId: CUSTOMER,
  monitorId: MONITOR,
  ...over,
});
const ids = (channels: RoutableChannel[]) => channels.map((c) => c.id);

describe('channel routing (channelsToNotify)', () => {
  it("notifies the organization's channels, then the event customer's, by id", () => {
    expect(ids(channelsToNotify(event(), [forCustomer(3), channel(2), channel(1)]))).to.deep.equal([1, 2, 3]);
  });

  it("leaves out other customers' and other organizations' channels", () => {
    expect(ids(channelsToNotify(event(), [channel(1), forCustomer(2, 11), channel(3, { organizationId: 2 })]))).to.deep.equal([1]);
  });

  it('leaves out disabled channels and channels that do not list the event', () => {
    const channels = [
      channel(1, { enabled: false }),
      channel(2, { events: ['incident.resolved'] }),
      channel(3, { events: ['incident.opened'] }),
    ];
    expect(ids(channelsToNotify(event('incident.opened'), channels))).to.deep.equal([3]);
    expect(ids(channelsToNotify(event('incident.resolved'), channels))).to.deep.equal([2]);
  });

  it("puts a monitor's override in place of its source channel, for that monitor only", () => {
    const channels = [channel(1), forCustomer(2), overrideOf(3, 1)];
    expect(ids(channelsToNotify(event(), channels))).to.deep.equal([3, 2]);
    expect(ids(channelsToNotify(event('incident.opened', { monitorId: 101 }), channels))).to.deep.equal([1, 2]);
  });

  it('replaces a customer channel by its override too', () => {
    expect(ids(channelsToNotify(event(), [forCustomer(2), overrideOf(4, 2)]))).to.deep.equal([4]);
  });

  it('mutes the source for the monitor when the override is disabled or lists other events', () => {
    expect(ids(channelsToNotify(event(), [channel(1), overrideOf(3, 1, { enabled: false })]))).to.deep.equal([]);
    expect(
      ids(channelsToNotify(event('incident.reminder'), [channel(1), overrideOf(3, 1, { events: ['incident.opened'] })])),
    ).to.deep.equal([]);
  });

  it('sends an override even when its source is disabled (the override decides for its monitor)', () => {
    expect(ids(channelsToNotify(event(), [channel(1, { enabled: false }), overrideOf(3, 1)]))).to.deep.equal([3]);
  });

  it('routes events without a monitor (a domain, an IP) to the organization and the customer, never to overrides', () => {
    const channels = [channel(1), forCustomer(2), overrideOf(3, 1)];
    expect(ids(channelsToNotify(event('domain.expiring', { monitorId: null }), channels))).to.deep.equal([1, 2]);
  });

  it("routes events without a customer to the organization's channels only", () => {
    expect(
      ids(channelsToNotify(event('maintenance.started', { customerId: null, monitorId: null }), [channel(1), forCustomer(2)])),
    ).to.deep.equal([1]);
  });
});
