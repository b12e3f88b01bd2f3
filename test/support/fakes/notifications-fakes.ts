import type { Transaction } from '../../../src/application/shared/transaction';
import type { ChannelType } from '../../../src/domain/notifications/channel-config';
import { UnavailableSender } from '../../../src/application/notifications/unavailable-sender';
import type { DirectSenders, NotificationSenders } from '../../../src/application/notifications/delivery-ports';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import type { NotificationChannel } from '../../../src/domain/notifications/notification-channel';
import type { OrganizationSmtp } from '../../../src/domain/notifications/organization-smtp';
import type { NotificationMessage } from '../../../src/domain/notifications/notification-message';
import type {
  ChannelFilter,
  ChannelOwners,
  ClaimedDelivery,
  ClaimedDirectDelivery,
  DirectDeliveries,
  DirectDeliveryQueue,
  DirectMessage,
  DirectSender,
  DeliveryAttempt,
  DeliveryFilter,
  DeliveryLedger,
  DeliveryNext,
  DeliveryRecord,
  DispatchedEvent,
  EventRoute,
  NotificationChannelRepository,
  NotificationSender,
  OrganizationSmtpStore,
  OutboxEvent,
  SendOutcome,
  SmtpProbe,
  SmtpVerifier,
  SmsProvider,
  SmsQuota,
  SmsReservation,
  SmsSendOutcome,
  DeliveryTarget,
  DueStorm,
  KnownHeld,
  StoredStorm,
  StormLedger,
  StormRoute,
  StormTell,
  StormWrite,
  ChannelHealthLedger,
  FailedDelivery,
  FailingChannel,
  Settlement,
} from '../../../src/application/notifications/ports';
import { CALM, type CustomerStorm } from '../../../src/domain/notifications/storm-digest';
import { copyOf, inScope, matches, RowVersions } from './shared-fakes';

/** A pending row a claim takes at `now`: due, no live lease, not being sent by the claiming process (as PostgreSQL's claims read it). */
const claimable = (
  row: { readonly id: string; readonly status: string; readonly nextAttemptAt: Date; readonly leaseUntil: Date | null },
  now: Date,
  sendingHere: readonly string[],
) =>
  row.status === 'pending' &&
  row.nextAttemptAt <= now &&
  (row.leaseUntil === null || row.leaseUntil <= now) &&
  !sendingHere.includes(row.id);

/**
 * Channels as the MikroORM adapter keeps them: ids from 1, loads are detached copies, a customer
 * scope sees its customer's rows only, saves are versioned, removing a channel removes its overrides.
 */
export class FakeNotificationChannels implements NotificationChannelRepository {
  readonly rows = new Map<number, NotificationChannel>();
  readonly versions = new RowVersions<number>();
  private next = 1;

  async add(channel: NotificationChannel) {
    channel.id = this.next++;
    this.rows.set(channel.id, copyOf(channel));
    this.versions.added(channel.id, channel);
    return channel;
  }
  readsIn(_tx: Transaction) {
    return this;
  }
  async findByRef(scope: TenantScope, ref: string) {
    const row = this.all().find((c) => inScope(scope, c.organizationId, c.customerId) && matches(c, ref));
    return row ? copyOf(row) : null;
  }
  /** Questions asked of the repository by public ids (one per call). */
  publicIdQueries = 0;
  async findByPublicIds(scope: TenantScope, publicIds: readonly string[]) {
    this.publicIdQueries++;
    return this.all()
      .filter((c) => inScope(scope, c.organizationId, c.customerId) && publicIds.includes(c.publicId))
      .map(copyOf);
  }
  async list(scope: TenantScope, filter: ChannelFilter) {
    return this.all()
      .filter(
        (c) =>
          inScope(scope, c.organizationId, c.customerId) &&
          (filter.customerId === undefined || c.customerId === filter.customerId) &&
          (filter.monitorId === undefined || c.monitorId === filter.monitorId) &&
          (!filter.organizationOnly || c.customerId === null),
      )
      .map(copyOf);
  }
  async sameScope(organizationId: number, customerId: number | null, monitorId: number | null) {
    return this.all()
      .filter((c) => c.organizationId === organizationId && c.customerId === customerId && c.monitorId === monitorId)
      .map(copyOf);
  }
  async overridesOf(organizationId: number, sourceChannelId: number) {
    return this.all()
      .filter((c) => c.organizationId === organizationId && c.sourceChannelId === sourceChannelId)
      .map(copyOf);
  }
  async forCustomers(organizationId: number, customerIds: readonly number[]) {
    return this.all()
      .filter((c) => c.organizationId === organizationId && (c.customerId === null || customerIds.includes(c.customerId)))
      .map(copyOf);
  }
  async forEvent(organizationId: number, customerId: number | null, monitorId: number | null) {
    return this.all()
      .filter(
        (c) =>
          c.organizationId === organizationId &&
          (c.customerId === null ||
            (c.customerId === customerId && c.monitorId === null) ||
            (monitorId !== null && c.monitorId === monitorId)),
      )
      .map(copyOf);
  }
  async save(channel: NotificationChannel) {
    this.versions.saved(channel.id, channel);
    this.rows.set(channel.id, copyOf(channel));
  }
  async remove(channel: NotificationChannel) {
    for (const c of this.all()) if (c.id === channel.id || c.sourceChannelId === channel.id) this.rows.delete(c.id);
    this.versions.removed(channel.id);
  }
  private all() {
    return [...this.rows.values()].sort((a, b) => a.id - b.id);
  }
}

/** Customers and monitors of the harness, visible as the adapter's scope filter allows. */
export class FakeChannelOwners implements ChannelOwners {
  readonly customers: Array<{ id: number; organizationId: number }> = [];
  readonly monitors: Array<{ id: number; organizationId: number; customerId: number }> = [];
  async customer(scope: TenantScope, ref: string) {
    const row = this.customers.find((c) => String(c.id) === ref && inScope(scope, c.organizationId, c.id));
    return row ? { id: row.id } : null;
  }
  async monitor(scope: TenantScope, ref: string) {
    const row = this.monitors.find((m) => String(m.id) === ref && inScope(scope, m.organizationId, m.customerId));
    return row ? { id: row.id, customerId: row.customerId } : null;
  }
  /** Users: organization-wide when customerId is null. */
  readonly users: Array<{ id: string; organizationId: number; customerId: number | null }> = [];
  async usersSeeing(organizationId: number, customerId: number | null, userIds: readonly string[]) {
    return new Set(
      this.users
        .filter((u) => u.organizationId === organizationId && (u.customerId === null || u.customerId === customerId))
        .map((u) => u.id)
        .filter((id) => userIds.includes(id)),
    );
  }
}

export class FakeOrganizationSmtp implements OrganizationSmtpStore {
  readonly rows = new Map<number, OrganizationSmtp>();
  async get(organizationId: number) {
    return this.rows.get(organizationId) ?? null;
  }
  async put(settings: OrganizationSmtp) {
    this.rows.set(settings.organizationId, { ...settings });
  }
  async remove(organizationId: number) {
    return this.rows.delete(organizationId);
  }
}

/** An outbound port whose call is the outcome: it keeps every probe and answers as told. */
export class FakeSmtpVerifier implements SmtpVerifier {
  readonly probes: SmtpProbe[] = [];
  outcome: { ok: true } | { ok: false; reason: string } = { ok: true };
  async verify(probe: SmtpProbe) {
    this.probes.push({ ...probe });
    return this.outcome;
  }
}

interface FakeDelivery {
  id: string;
  organizationId: number;
  customerId: number | null;
  /** The customer of the channel it went through (null: the organization's channel), as the SQL ledger writes it. */
  channelCustomerId: number | null;
  outboxId: number;
  channelPublicId: string;
  channelType: string;
  message: Omit<NotificationMessage, 'id'>;
  status: 'pending' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
  nextAttemptAt: Date;
  leaseOwner: string | null;
  leaseUntil: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
  failedAt: Date | null;
  lastError: string | null;
  fallbackDue?: boolean;
  fallbackOf?: string | null;
}

/** The ledger as SqlDeliveryLedger keeps it: routing marks the event once, claims are leased, settling needs the lease. */
export class FakeDeliveryLedger implements DeliveryLedger {
  readonly events: Array<OutboxEvent & { routedAt: Date | null }> = [];
  readonly deliveries: FakeDelivery[] = [];
  private next = 1;

  /** With the channels' rows, settling keeps their health as SqlDeliveryLedger's statement does. */
  constructor(private readonly channels?: FakeNotificationChannels) {}

  /** The channel's customer, read when a delivery is written (null for the organization's, or a channel not known). */
  private channelCustomerOf(channelId: number): number | null {
    return this.channels?.rows.get(channelId)?.customerId ?? null;
  }

  async unroutedEvents(kinds: readonly string[], limit: number) {
    return this.events
      .filter((e) => e.routedAt === null && kinds.includes(e.kind))
      .slice(0, limit)
      .map(({ routedAt: _r, ...e }) => e);
  }
  async route(
    event: OutboxEvent,
    channels: readonly { id: number; publicId: string; type: string }[],
    message: Omit<NotificationMessage, 'id'>,
    at: Date,
  ) {
    return (await this.routeMany([{ event, channels, message }], at)) > 0;
  }
  async routeMany(routes: readonly EventRoute[], at: Date) {
    let routed = 0;
    for (const { event, channels, message } of routes) {
      const row = this.events.find((e) => e.id === event.id);
      if (!row || row.routedAt !== null) continue;
      row.routedAt = at;
      routed += 1;
      for (const c of channels) {
        if (this.deliveries.some((d) => d.outboxId === event.id && d.channelPublicId === c.publicId)) continue;
        this.deliveries.push({
          id: `delivery-${this.next++}`,
          organizationId: event.organizationId,
          customerId: event.customerId,
          channelCustomerId: this.channelCustomerOf(c.id),
          outboxId: event.id,
          channelPublicId: c.publicId,
          channelType: c.type,
          message,
          status: 'pending',
          attempts: [],
          nextAttemptAt: at,
          leaseOwner: null,
          leaseUntil: null,
          createdAt: at,
          deliveredAt: null,
          failedAt: null,
          lastError: null,
        });
      }
    }
    return routed;
  }
  /** Events dispatched with their channels chosen (tests, manual alerts), as their outbox rows keep them. */
  readonly dispatched: Array<DispatchedEvent & { id: number; routedAt: Date }> = [];
  async dispatch(
    event: DispatchedEvent,
    channels: readonly { id: number; publicId: string; type: string }[],
    message: Omit<NotificationMessage, 'id'>,
    at: Date,
  ) {
    const outboxId = 1_000_000 + this.dispatched.length;
    this.dispatched.push({ ...event, id: outboxId, routedAt: at });
    return channels.map((c) => {
      const id = `delivery-${this.next++}`;
      this.deliveries.push({
        id,
        organizationId: event.organizationId,
        customerId: message.customerId,
        channelCustomerId: this.channelCustomerOf(c.id),
        outboxId,
        channelPublicId: c.publicId,
        channelType: c.type,
        message,
        status: 'pending',
        attempts: [],
        nextAttemptAt: at,
        leaseOwner: null,
        leaseUntil: null,
        createdAt: at,
        deliveredAt: null,
        failedAt: null,
        lastError: null,
      });
      return id;
    });
  }
  /** A delivery written by another part of the ledger (a digest, a fallback): answers its id. */
  addDelivery(
    organizationId: number,
    outboxId: number,
    channel: DeliveryTarget,
    message: Omit<NotificationMessage, 'id'>,
    at: Date,
  ): string {
    const id = `delivery-${this.next++}`;
    this.deliveries.push({
      id,
      organizationId,
      customerId: message.customerId,
      channelCustomerId: this.channelCustomerOf(channel.id),
      outboxId,
      channelPublicId: channel.publicId,
      channelType: channel.type,
      message,
      status: 'pending',
      attempts: [],
      nextAttemptAt: at,
      leaseOwner: null,
      leaseUntil: null,
      createdAt: at,
      deliveredAt: null,
      failedAt: null,
      lastError: null,
    });
    return id;
  }
  async nextDueAt(sendingHere: readonly string[] = []): Promise<Date | null> {
    const due = this.deliveries
      .filter((d) => d.status === 'pending' && !sendingHere.includes(d.id))
      .map((d) => Math.max(d.nextAttemptAt.getTime(), d.leaseUntil?.getTime() ?? 0));
    return due.length === 0 ? null : new Date(Math.min(...due));
  }

  async claimDue(
    owner: string,
    now: Date,
    leaseMs: number,
    limit: number,
    sendingHere: readonly string[] = [],
  ): Promise<ClaimedDelivery[]> {
    const due = this.deliveries
      .filter((d) => claimable(d, now, sendingHere))
      .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime())
      .slice(0, limit);
    for (const d of due) {
      d.leaseOwner = owner;
      d.leaseUntil = new Date(now.getTime() + leaseMs);
    }
    return due.map((d) => ({
      id: d.id,
      organizationId: d.organizationId,
      channelPublicId: d.channelPublicId,
      attempts: d.attempts.length,
      message: { ...d.message, id: d.id },
      fallbackOf: d.fallbackOf ?? null,
    }));
  }
  async claimOne(owner: string, id: string, now: Date, leaseMs: number): Promise<ClaimedDelivery | null> {
    const d = this.deliveries.find((x) => x.id === id && x.status === 'pending' && (x.leaseUntil === null || x.leaseUntil <= now));
    if (!d) return null;
    d.leaseOwner = owner;
    d.leaseUntil = new Date(now.getTime() + leaseMs);
    return {
      id: d.id,
      organizationId: d.organizationId,
      channelPublicId: d.channelPublicId,
      attempts: d.attempts.length,
      message: { ...d.message, id: d.id },
      fallbackOf: d.fallbackOf ?? null,
    };
  }
  async settle(owner: string, deliveryId: string, attempt: DeliveryAttempt, next: DeliveryNext) {
    const d = this.deliveries.find((x) => x.id === deliveryId);
    if (!d || d.leaseOwner !== owner || d.status !== 'pending') return false;
    d.attempts.push(attempt);
    d.status = next.status;
    d.leaseOwner = null;
    d.leaseUntil = null;
    if (next.status === 'pending') {
      d.nextAttemptAt = next.nextAttemptAt;
      d.fallbackDue = d.fallbackDue || next.fallBack === true;
    }
    if (next.status === 'delivered') d.deliveredAt = attempt.at;
    if (next.status === 'failed') {
      d.failedAt = attempt.at;
      d.lastError = next.reason;
      d.fallbackDue = next.fallBack === true;
    }
    // As the SQL ledger: every attempt moves the channel's health.
    const channel = [...(this.channels?.rows.values() ?? [])].find((c) => c.publicId === d.channelPublicId);
    if (channel && next.status === 'delivered') {
      Object.assign(channel, { consecutiveFailures: 0, lastSuccessAt: attempt.at, failingSince: null });
    } else if (channel && next.status !== 'delivered' && next.channelFault) {
      const reason =
        next.status === 'failed'
          ? next.reason
          : (attempt.error ?? (attempt.statusCode === null ? 'No answer' : `Answered ${attempt.statusCode}`));
      Object.assign(channel, {
        consecutiveFailures: channel.consecutiveFailures + 1,
        lastFailureAt: attempt.at,
        lastFailureReason: reason,
      });
    }
    return true;
  }
  /** Statements the ledger was asked for (settleMany calls) and the settlements in each. */
  readonly settleBatches: string[][] = [];
  async settleMany(owner: string, settlements: readonly Settlement[]) {
    this.settleBatches.push(settlements.map((s) => s.deliveryId));
    const settled = new Set<string>();
    for (const s of settlements) if (await this.settle(owner, s.deliveryId, s.attempt, s.next)) settled.add(s.deliveryId);
    return settled;
  }
  async list(scope: TenantScope, filter: DeliveryFilter, page: { offset: number; limit: number }) {
    // As the SQL ledger: a customer's scope sees the deliveries through its customer's channels only.
    const seen = (d: FakeDelivery) => inScope(scope, d.organizationId, d.channelCustomerId);
    const visible = this.deliveries.filter(
      (d) =>
        seen(d) &&
        (filter.channelId === undefined || d.channelPublicId === filter.channelId) &&
        (filter.incidentId === undefined || d.message.incidentId === filter.incidentId),
    );
    const items: DeliveryRecord[] = visible.slice(page.offset, page.offset + page.limit).map((d) => ({
      id: d.id,
      channelId: d.channelPublicId,
      channelType: d.channelType,
      event: d.message.event,
      incidentId: d.message.incidentId,
      customerId: d.customerId,
      monitorId: d.message.monitorId,
      status: d.status,
      attempts: [...d.attempts],
      nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt : null,
      createdAt: d.createdAt,
      deliveredAt: d.deliveredAt,
      failedAt: d.failedAt,
      lastError: d.lastError,
      fallbackOf: this.deliveries.find((o) => o.id === d.fallbackOf && seen(o))?.id ?? null,
      fallbackId: this.deliveries.find((f) => f.fallbackOf === d.id && seen(f))?.id ?? null,
    }));
    return { items, total: visible.length };
  }
}

/**
 * Storm windows over a FakeDeliveryLedger's events and deliveries, as SqlStormLedger keeps them:
 * an event is counted once (routing marks it), a window's rule is the domain's, and a window's
 * held events are digested at most once.
 */
export class FakeStormLedger implements StormLedger {
  readonly storms = new Map<string, { state: CustomerStorm; version: number; dueAt: Date | null }>();
  readonly held = new Map<number, { kind: string; digested: boolean }>();
  readonly told: Array<{ customerId: number; at: Date; heldIds: number[] }> = [];
  /** Customer names as the SQL adapter reads them from customers. */
  readonly customerNames = new Map<number, string>();

  constructor(private readonly ledger: FakeDeliveryLedger) {}

  async storm(organizationId: number, customerId: number): Promise<StoredStorm> {
    const row = this.storms.get(`${organizationId}/${customerId}`);
    return row ? { state: row.state, version: row.version } : { state: CALM, version: 0 };
  }

  async stormsOf(customers: readonly { organizationId: number; customerId: number }[]) {
    return Promise.all(customers.map((c) => this.storm(c.organizationId, c.customerId)));
  }

  async route(
    organizationId: number,
    customerId: number,
    version: number,
    next: CustomerStorm,
    dueAt: Date | null,
    routes: readonly StormRoute[],
    at: Date,
  ) {
    const key = `${organizationId}/${customerId}`;
    const rows = routes.map((r) => this.ledger.events.find((e) => e.id === r.event.id));
    if (rows.some((row) => !row || row.routedAt !== null) || (this.storms.get(key)?.version ?? 0) !== version) return false;
    this.storms.set(key, { state: next, version: version + 1, dueAt });
    for (const route of routes) {
      if (route.decision === 'alone') await this.ledger.route(route.event, route.channels, route.message, at);
      else this.ledger.events.find((e) => e.id === route.event.id)!.routedAt = at;
      if (route.decision === 'held') this.held.set(route.event.id, { kind: route.message.event, digested: false });
    }
    return true;
  }

  async routeAll(writes: readonly StormWrite[], at: Date) {
    const written: boolean[] = [];
    for (const w of writes) written.push(await this.route(w.organizationId, w.customerId, w.version, w.next, w.dueAt, w.routes, at));
    return written;
  }

  /** Storms whose held events dueStorms read from the ledger (not given by `known`), in the order read. */
  readonly heldReads: string[] = [];

  private readHeld(key: string, organizationId: number, customerId: number) {
    this.heldReads.push(key);
    return this.ledger.events
      .filter((e) => e.organizationId === organizationId && e.customerId === customerId && this.held.get(e.id)?.digested === false)
      .map(({ routedAt: _r, ...e }) => ({ ...e, heldKind: this.held.get(e.id)!.kind }));
  }

  async dueStorms(now: Date, limit: number, known: KnownHeld = () => undefined): Promise<DueStorm[]> {
    const due = [...this.storms.entries()]
      .filter(([, row]) => row.dueAt !== null && row.dueAt <= now)
      .sort(([, a], [, b]) => a.dueAt!.getTime() - b.dueAt!.getTime())
      .slice(0, limit);
    return due.map(([key, row]) => {
      const [organizationId, customerId] = key.split('/').map(Number) as [number, number];
      // What was read at this very version is still what it holds; else every held event is read again.
      const before = known({ organizationId, customerId });
      const held = before?.version === row.version ? before.held : this.readHeld(key, organizationId, customerId);
      return {
        organizationId,
        customerId,
        customerName: this.customerNames.get(customerId) ?? `customer ${customerId}`,
        state: row.state,
        version: row.version,
        dueAt: row.dueAt!,
        held,
      };
    });
  }

  async nextDueAt(): Promise<Date | null> {
    const due = [...this.storms.values()].flatMap((row) => (row.dueAt === null ? [] : [row.dueAt.getTime()]));
    return due.length === 0 ? null : new Date(Math.min(...due));
  }

  async tell(
    storm: DueStorm,
    next: CustomerStorm,
    dueAt: Date | null,
    deliveries: readonly { channel: DeliveryTarget; message: Omit<NotificationMessage, 'id'> }[],
    at: Date,
  ) {
    const key = `${storm.organizationId}/${storm.customerId}`;
    if (this.storms.get(key)?.version !== storm.version || storm.held.some((e) => this.held.get(e.id)?.digested !== false)) return false;
    this.storms.set(key, { state: next, version: storm.version + 1, dueAt });
    for (const e of storm.held) this.held.get(e.id)!.digested = true;
    this.told.push({ customerId: storm.customerId, at, heldIds: storm.held.map((e) => e.id) });
    for (const { channel, message } of deliveries)
      this.ledger.addDelivery(storm.organizationId, 2_000_000 + this.told.length, channel, message, at);
    return true;
  }

  async tellAll(tells: readonly StormTell[], at: Date) {
    const written: boolean[] = [];
    for (const t of tells) written.push(await this.tell(t.storm, t.next, t.dueAt, t.deliveries, at));
    return written;
  }
}

/**
 * Fallbacks and announcements over a FakeDeliveryLedger and the channels' rows, as
 * SqlChannelHealthLedger writes them: guarded by the delivery's due mark and the channel's failing mark.
 */
export class FakeChannelHealthLedger implements ChannelHealthLedger {
  readonly announcements: Array<{ channelId: number; target: DeliveryTarget | null; message: Omit<NotificationMessage, 'id'> }> = [];

  constructor(
    private readonly ledger: FakeDeliveryLedger,
    private readonly channels: FakeNotificationChannels,
  ) {}

  async fallbacksDue(limit: number): Promise<FailedDelivery[]> {
    return this.ledger.deliveries
      .filter((d) => d.fallbackDue)
      .slice(0, limit)
      .map((d) => ({
        id: d.id,
        organizationId: d.organizationId,
        channelId: [...this.channels.rows.values()].find((c) => c.publicId === d.channelPublicId)?.id ?? null,
      }));
  }

  async fallBack(delivery: FailedDelivery, target: DeliveryTarget | null, at: Date) {
    const d = this.ledger.deliveries.find((x) => x.id === delivery.id);
    if (!d?.fallbackDue) return false;
    d.fallbackDue = false;
    if (target && !this.ledger.deliveries.some((x) => x.outboxId === d.outboxId && x.channelPublicId === target.publicId)) {
      const id = this.ledger.addDelivery(d.organizationId, d.outboxId, target, d.message, at);
      Object.assign(
        this.ledger.deliveries.find((x) => x.id === id)!,
        { fallbackOf: d.id, customerId: null },
      );
    }
    return true;
  }

  async failingUnannounced(failingAfter: number, limit: number): Promise<FailingChannel[]> {
    return [...this.channels.rows.values()]
      .filter((c) => c.consecutiveFailures >= failingAfter && c.consecutiveFailures > 0 && c.failingSince === null)
      .slice(0, limit)
      .map((c) => ({
        id: c.id,
        publicId: c.publicId,
        organizationId: c.organizationId,
        customerId: c.customerId,
        name: c.name,
        type: c.type,
        consecutiveFailures: c.consecutiveFailures,
        lastFailureReason: c.lastFailureReason,
      }));
  }

  async announceFailing(
    channel: FailingChannel,
    failingAfter: number,
    target: DeliveryTarget | null,
    message: Omit<NotificationMessage, 'id'>,
    at: Date,
  ) {
    const row = this.channels.rows.get(channel.id);
    if (!row || row.failingSince !== null || row.consecutiveFailures < failingAfter) return false;
    row.failingSince = at;
    this.announcements.push({ channelId: channel.id, target, message });
    if (target) this.ledger.addDelivery(channel.organizationId, 3_000_000 + this.announcements.length, target, message, at);
    return true;
  }
}

/** A sender answering from a script per channel (then 200), recording what it was asked to send. */
export class FakeNotificationSender implements NotificationSender {
  readonly sent: Array<{ channelId: string; message: NotificationMessage; secret: string | null }> = [];
  readonly scripts = new Map<string, Array<Partial<SendOutcome>>>();

  async send(channel: NotificationChannel, message: NotificationMessage, secret: string | null): Promise<SendOutcome> {
    this.sent.push({ channelId: channel.publicId, message, secret });
    const next = this.scripts.get(channel.publicId)?.shift() ?? {};
    return { verdict: 'delivered', statusCode: 200, responseExcerpt: 'ok', retryAfterMs: null, error: null, latencyMs: 5, ...next };
  }
}

/** An SMS gateway answering from a script per phone number (then delivered), recording what it was given. */
export class FakeSmsProvider implements SmsProvider {
  readonly sent: Array<{ to: string; text: string }> = [];
  readonly scripts = new Map<string, Array<Partial<SmsSendOutcome>>>();
  private nextId = 1;

  async send(to: string, text: string): Promise<SmsSendOutcome> {
    const scripted = this.scripts.get(to)?.shift();
    if (!scripted || scripted.verdict === 'delivered') this.sent.push({ to, text });
    return {
      verdict: 'delivered',
      statusCode: 201,
      responseExcerpt: null,
      retryAfterMs: null,
      error: null,
      latencyMs: 1,
      messageId: scripted && scripted.verdict !== 'delivered' ? null : `SM${this.nextId++}`,
      ...scripted,
    };
  }
}

/** Monthly SMS counters per customer against an allowance per customer (the package's), reserved all or none. */
export class FakeSmsQuota implements SmsQuota {
  readonly allowances = new Map<number, number>();
  readonly used = new Map<string, number>();

  async reserve(organizationId: number, customerId: number, month: string, count: number): Promise<SmsReservation> {
    const key = `${organizationId}/${customerId}/${month}`;
    const used = this.used.get(key) ?? 0;
    const allowance = this.allowances.get(customerId) ?? 0;
    if (used + count > allowance) return { granted: false, used, allowance };
    this.used.set(key, used + count);
    return { granted: true };
  }

  async release(organizationId: number, customerId: number, month: string, count: number): Promise<void> {
    const key = `${organizationId}/${customerId}/${month}`;
    this.used.set(key, Math.max(0, (this.used.get(key) ?? 0) - count));
  }

  usedIn(customerId: number, month: string, organizationId = 1): number {
    return this.used.get(`${organizationId}/${customerId}/${month}`) ?? 0;
  }
}

/**
 * Direct messages as SqlDirectDeliveries keeps them: one row per dedup key and organization, leased
 * claims, settled only under the caller's lease (it stands in for the ledger's `settle` too).
 */
export class FakeDirectDeliveries implements DirectDeliveries, DirectDeliveryQueue {
  readonly rows: Array<{
    id: string;
    message: DirectMessage;
    at: Date;
    status: 'pending' | 'delivered' | 'failed';
    attempts: DeliveryAttempt[];
    nextAttemptAt: Date;
    leaseOwner: string | null;
    leaseUntil: Date | null;
    lastError: string | null;
  }> = [];
  private next = 1;
  /** The transaction each enqueue was handed (undefined: none). */
  readonly enqueuedIn: Array<Transaction | undefined> = [];

  async enqueue(messages: readonly DirectMessage[], at: Date, tx?: Transaction): Promise<string[]> {
    this.enqueuedIn.push(tx);
    return messages.map((message) => {
      const existing = this.rows.find(
        (r) => r.message.organizationId === message.organizationId && r.message.dedupKey === message.dedupKey,
      );
      if (existing) return existing.id;
      const id = `direct-${this.next++}`;
      this.rows.push({
        id,
        message,
        at,
        status: 'pending',
        attempts: [],
        nextAttemptAt: at,
        leaseOwner: null,
        leaseUntil: null,
        lastError: null,
      });
      return id;
    });
  }

  async claimDue(
    owner: string,
    now: Date,
    leaseMs: number,
    limit: number,
    sendingHere: readonly string[] = [],
  ): Promise<ClaimedDirectDelivery[]> {
    const due = this.rows.filter((r) => claimable(r, now, sendingHere)).slice(0, limit);
    return due.map((r) => {
      r.leaseOwner = owner;
      r.leaseUntil = new Date(now.getTime() + leaseMs);
      const { organizationId, customerId, recipient, dedupKey: _key, incidentId: _incident, ...content } = r.message;
      return {
        id: r.id,
        organizationId,
        customerId,
        recipient,
        attempts: r.attempts.length,
        content: { ...content, occurredAt: r.at.toISOString() },
      };
    });
  }

  async settle(owner: string, deliveryId: string, attempt: DeliveryAttempt, next: DeliveryNext): Promise<boolean> {
    const row = this.rows.find((r) => r.id === deliveryId);
    if (!row || row.leaseOwner !== owner || row.status !== 'pending') return false;
    row.attempts.push(attempt);
    row.status = next.status;
    row.leaseOwner = null;
    row.leaseUntil = null;
    if (next.status === 'pending') row.nextAttemptAt = next.nextAttemptAt;
    if (next.status === 'failed') row.lastError = next.reason;
    return true;
  }

  async settleMany(owner: string, settlements: readonly Settlement[]): Promise<Set<string>> {
    const settled = new Set<string>();
    for (const s of settlements) if (await this.settle(owner, s.deliveryId, s.attempt, s.next)) settled.add(s.deliveryId);
    return settled;
  }
}

/** A direct sender answering from a script (then delivered), recording what it was asked to send. */
export class FakeDirectSender implements DirectSender {
  readonly sent: ClaimedDirectDelivery[] = [];
  readonly script: Array<Partial<SendOutcome>> = [];

  async sendDirect(delivery: ClaimedDirectDelivery): Promise<SendOutcome> {
    this.sent.push(delivery);
    return {
      verdict: 'delivered',
      statusCode: 250,
      responseExcerpt: null,
      retryAfterMs: null,
      error: null,
      latencyMs: 2,
      ...this.script.shift(),
    };
  }
}

/**
 * A total sender table for a test, named by channel type: each transport's sender hands a channel to
 * the sender named for its type, and to one that is unavailable for every other type.
 */
export function sendersWith(named: Partial<Record<ChannelType, NotificationSender>>): NotificationSenders {
  const unavailable = (type: string) => new UnavailableSender(`No sender for ${type} channels is configured`);
  const byType: NotificationSender = {
    send: (channel, message, secret) => (named[channel.type] ?? unavailable(channel.type)).send(channel, message, secret),
  };
  return { post: byType, email: byType, sms: byType, voice: byType, 'web-push': byType };
}

/** The same for direct messages. */
export function directSendersWith(named: Partial<DirectSenders>): DirectSenders {
  const unavailable = (type: string) => new UnavailableSender(`No sender for ${type} messages is configured`);
  return {
    webhook: named.webhook ?? unavailable('webhook'),
    email: named.email ?? unavailable('email'),
    sms: named.sms ?? unavailable('sms'),
    'web-push': named['web-push'] ?? unavailable('web-push'),
  };
}
