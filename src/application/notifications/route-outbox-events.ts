import { organizationScope } from '../../domain/shared/tenant-scope';
import type { ChannelEvent } from '../../domain/notifications/channel-events';
import { channelsToNotify } from '../../domain/notifications/channel-routing';
import { channelEventOf, OUTBOX_EVENT_KINDS } from '../../domain/notifications/delivery-schedule';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { NotificationMessage } from '../../domain/notifications/notification-message';
import {
  groupsInStorms,
  routeInStorm,
  stormDueAt,
  stormMessage,
  tellStorm,
  type Storm,
  type StormChange,
  type StormPolicy,
  type StormStage,
} from '../../domain/notifications/storm-digest';
import type { Clock } from '../shared/clock';
import type { FallBackFromFailingChannels } from './fall-back-from-failing-channels';
import type { SendSecurityNotices } from './send-security-notices';
import type {
  DeliveryLedger,
  DueStorm,
  EventRoute,
  HeldEvents,
  NotificationChannelRepository,
  OutboxEvent,
  StoredStorm,
  StormLedger,
  StormRoute,
  StormTell,
  StormWrite,
} from './ports';

/** Events routed per round. */
export const ROUTE_BATCH = 1000;

/**
 * How long before a storm is due its held events are read: while it settles (no failure joined for
 * a while), so that when it is due its telling writes its message without reading them first.
 */
export const STORM_READ_AHEAD_MS = 500;

const stormKey = (storm: { organizationId: number; customerId: number }) => `${storm.organizationId}/${storm.customerId}`;

const messageOf = (kind: ChannelEvent, event: OutboxEvent): Omit<NotificationMessage, 'id'> => ({
  event: kind,
  occurredAt: event.occurredAt,
  summary: event.summary,
  incidentId: event.incidentId,
  monitorId: event.monitorId,
  customerId: event.customerId,
  data: event.data,
});

/**
 * Turns the outbox's events into deliveries: each event goes to the channels configured now, one
 * delivery per channel, written with the event's "routed" mark; the round's events that go out on
 * their own are written in one statement (one commit). Two workers routing one event race on that
 * mark: one writes the deliveries, the other writes nothing. The candidates are read once per
 * organization and round (its channels and all of the round's customers', overrides included, which
 * routing narrows to each event's customer and monitor).
 *
 * Storms are told once (see StormPolicy): a customer's incident transitions of the round go through
 * its storm state together (read, decided by the domain; the round's customers written in one
 * statement, in which a concurrent writer makes that customer's write a no-op); then the storms whose next message is due tell each channel what it would
 * have received one by one (monitor overrides included): a channel listing `incident.opened` gets
 * the failures, one listing `incident.resolved` the recoveries and the storm's end. Then failed
 * deliveries go to the fallback channel (FallBackFromFailingChannels), and the identity context's
 * security notices become direct e-mails (SendSecurityNotices). Answers how many events it routed,
 * notices it sent, storm messages it wrote and fallbacks it wrote.
 */
export class RouteOutboxEvents {
  /** The held events read for the storms due soon, each at the version read (read again only for what was held since). */
  private readonly heldRead = new Map<string, { version: number; held: HeldEvents }>();
  /** Storms due by this instant (epoch ms) had their held events read in the last round. */
  private readAheadUntil = 0;

  constructor(
    private readonly ledger: DeliveryLedger,
    private readonly channels: NotificationChannelRepository,
    private readonly clock: Clock,
    private readonly storms: StormLedger,
    private readonly policy: StormPolicy,
    private readonly fallbacks: FallBackFromFailingChannels,
    /** The identity context's security notices, sent as direct e-mails in the same round (when given). */
    private readonly notices?: Pick<SendSecurityNotices, 'execute'>,
  ) {}

  /** `limit`: most events a round routes (a storm's backlog goes in few rounds: the statements per round grow with its customers, not its events). */
  async execute(limit = ROUTE_BATCH): Promise<number> {
    const events = await this.ledger.unroutedEvents(OUTBOX_EVENT_KINDS, limit);
    const byOrganization = new Map<number, NotificationChannel[]>();
    for (const organizationId of new Set(events.filter((e) => e.customerId !== null).map((e) => e.organizationId))) {
      const customers = new Set(
        events.filter((e) => e.organizationId === organizationId && e.customerId !== null).map((e) => e.customerId!),
      );
      byOrganization.set(organizationId, await this.channels.forCustomers(organizationId, [...customers]));
    }
    const candidatesOf = async (event: OutboxEvent) =>
      event.customerId === null
        ? this.channels.forEvent(event.organizationId, null, event.monitorId)
        : byOrganization.get(event.organizationId)!;
    const alone: EventRoute[] = [];
    const inStorms = new Map<string, { organizationId: number; customerId: number; routes: EventRoute[] }>();
    for (const event of events) {
      const kind = channelEventOf(event.kind);
      if (kind === null) continue;
      const targets = channelsToNotify(
        { kind, organizationId: event.organizationId, customerId: event.customerId, monitorId: event.monitorId },
        await candidatesOf(event),
      );
      const route = { event, channels: targets, message: messageOf(kind, event) };
      if (!groupsInStorms(kind, event.customerId, this.policy)) {
        alone.push(route);
        continue;
      }
      const key = `${event.organizationId}/${event.customerId}`;
      const customer = inStorms.get(key) ?? { organizationId: event.organizationId, customerId: event.customerId!, routes: [] };
      customer.routes.push(route);
      inStorms.set(key, customer);
    }
    let routed = await this.ledger.routeMany(alone, this.clock.now());
    const customers = [...inStorms.values()];
    const stored = await this.storms.stormsOf(customers);
    // The customers' storm writes of the round in one statement, each guarded on its own.
    const written = await this.storms.routeAll(
      customers.map((customer, i) => this.throughStorm(customer, stored[i]!)),
      this.clock.now(),
    );
    customers.forEach((customer, i) => {
      if (written[i]) routed += customer.routes.length;
    });
    const notices = this.notices ? await this.notices.execute(limit) : 0;
    return routed + notices + (await this.tellDueStorms(limit)) + (await this.fallbacks.execute(limit));
  }

  /**
   * How long until the soonest storm is due to tell its channels (0: due now), or null when none
   * is: a waiting worker's next round comes then rather than at its next poll, so a storm's digest
   * goes out as soon as it settled.
   */
  async msUntilStormDue(): Promise<number | null> {
    const due = await this.storms.nextDueAt();
    if (due === null) return null;
    const ms = due.getTime() - this.clock.now().getTime();
    // First woken a little before, to read what it holds while it settles (STORM_READ_AHEAD_MS).
    return Math.max(0, due.getTime() <= this.readAheadUntil ? ms : ms - STORM_READ_AHEAD_MS);
  }

  /** A customer's events of the round through its storm, in the outbox's order; on a lost race they wait for the next round. */
  private throughStorm(
    { organizationId, customerId, routes }: { organizationId: number; customerId: number; routes: EventRoute[] },
    stored: StoredStorm,
  ): StormWrite {
    const now = this.clock.now();
    let state = stored.state;
    const decided: StormRoute[] = routes.map((route) => {
      const step = routeInStorm(
        state,
        { kind: route.message.event as ChannelEvent, incidentId: route.event.incidentId, at: now.getTime() },
        this.policy,
      );
      state = step.state;
      return { ...route, decision: step.decision };
    });
    const due = stormDueAt(state, this.policy);
    return {
      organizationId,
      customerId,
      version: stored.version,
      next: state,
      dueAt: due === null ? null : new Date(due),
      routes: decided,
    };
  }

  /**
   * The due storms' messages in one statement, and the storms due by a policy of before set due
   * again in another. The storms due within STORM_READ_AHEAD_MS are read too, with what they hold
   * (only what was held since the last round's read), and only remembered.
   */
  private async tellDueStorms(limit: number): Promise<number> {
    const now = this.clock.now();
    const ahead = now.getTime() + STORM_READ_AHEAD_MS;
    const storms = await this.storms.dueStorms(new Date(ahead), limit, (storm) => this.heldRead.get(stormKey(storm)));
    this.readAheadUntil = ahead;
    this.heldRead.clear();
    for (const storm of storms) this.heldRead.set(stormKey(storm), { version: storm.version, held: storm.held });
    const stale: StormWrite[] = [];
    const tells: StormTell[] = [];
    // Every channel of an organization, read once per round: routing picks per event (its monitor's overrides) among them.
    const read = new Map<number, Promise<NotificationChannel[]>>();
    for (const storm of storms) {
      if (storm.dueAt.getTime() > now.getTime()) continue; // read ahead: told when due
      const { state, stage } = tellStorm(storm.state, now.getTime(), this.policy);
      if (stage === null || storm.state.storm === null) {
        // Due by a policy of before (a restart with other settings): due again when this policy says.
        const due = stormDueAt(storm.state, this.policy);
        const { organizationId, customerId, version } = storm;
        stale.push({ organizationId, customerId, version, next: storm.state, dueAt: due === null ? null : new Date(due), routes: [] });
        continue;
      }
      const all = read.get(storm.organizationId) ?? this.channels.list(organizationScope(storm.organizationId), {});
      read.set(storm.organizationId, all);
      const due = stormDueAt(state, this.policy);
      const deliveries = this.messagesOf(storm, stage, storm.state.storm, await all, now);
      tells.push({ storm, next: state, dueAt: due === null ? null : new Date(due), deliveries });
    }
    await this.storms.routeAll(stale, now);
    const told = await this.storms.tellAll(tells, now);
    // A storm told holds none of these any more (they are below its told version).
    tells.forEach(({ storm }, i) => {
      if (told[i]) this.heldRead.delete(stormKey(storm));
    });
    return told.filter(Boolean).length;
  }

  /** Per channel, the changes it would have received one by one; the storm's end also to every channel of the customer's recoveries. */
  private messagesOf(storm: DueStorm, stage: StormStage, figures: Storm, channels: readonly NotificationChannel[], at: Date) {
    // What can route this customer's events (channelsToNotify): the organization's and the customer's
    // channels, and monitors' overrides; other customers' channels are left out once per storm, not
    // weighed again for each of its held events.
    const all = channels.filter(
      (c) =>
        c.organizationId === storm.organizationId && (c.customerId === null || c.customerId === storm.customerId || c.monitorId !== null),
    );
    const perChannel = new Map<number, { channel: NotificationChannel; changes: StormChange[] }>();
    const add = (channel: NotificationChannel, change: StormChange | null) => {
      const entry = perChannel.get(channel.id) ?? { channel, changes: [] };
      if (change) entry.changes.push(change);
      perChannel.set(channel.id, entry);
    };
    for (const event of storm.held) {
      const kind = event.heldKind as ChannelEvent;
      const occurrence = { kind, organizationId: storm.organizationId, customerId: storm.customerId, monitorId: event.monitorId };
      for (const channel of channelsToNotify(occurrence, all)) add(channel, { ...event, kind });
    }
    if (stage === 'over') {
      const occurrence = {
        kind: 'incident.resolved' as const,
        organizationId: storm.organizationId,
        customerId: storm.customerId,
        monitorId: null,
      };
      for (const channel of channelsToNotify(occurrence, all)) add(channel, null);
    }
    const customer = { id: storm.customerId, name: storm.customerName };
    return [...perChannel.values()].map(({ channel, changes }) => ({
      channel,
      message: stormMessage(stage, customer, figures, changes, at),
    }));
  }
}
