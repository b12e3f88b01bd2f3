import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import type { NotificationChannel } from '../../../src/domain/notifications/notification-channel';
import type { OrganizationSmtp } from '../../../src/domain/notifications/organization-smtp';
import type {
  ChannelFilter, ChannelOwners, NotificationChannelRepository, OrganizationSmtpStore, SmtpProbe, SmtpVerifier,
} from '../../../src/application/notifications/ports';
import { copyOf, inScope, matches, RowVersions } from './shared-fakes';

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
  async findByRef(scope: TenantScope, ref: string) {
    const row = this.all().find((c) => inScope(scope, c.organizationId, c.customerId) && matches(c, ref));
    return row ? copyOf(row) : null;
  }
  async list(scope: TenantScope, filter: ChannelFilter) {
    return this.all().filter((c) => inScope(scope, c.organizationId, c.customerId)
      && (filter.customerId === undefined || c.customerId === filter.customerId)
      && (filter.monitorId === undefined || c.monitorId === filter.monitorId)
      && (!filter.organizationOnly || c.customerId === null)).map(copyOf);
  }
  async sameScope(organizationId: number, customerId: number | null, monitorId: number | null) {
    return this.all().filter((c) => c.organizationId === organizationId && c.customerId === customerId && c.monitorId === monitorId).map(copyOf);
  }
  async overridesOf(organizationId: number, sourceChannelId: number) {
    return this.all().filter((c) => c.organizationId === organizationId && c.sourceChannelId === sourceChannelId).map(copyOf);
  }
  async forEvent(organizationId: number, customerId: number | null, monitorId: number | null) {
    return this.all().filter((c) => c.organizationId === organizationId && (c.customerId === null
      || (c.customerId === customerId && c.monitorId === null) || (monitorId !== null && c.monitorId === monitorId))).map(copyOf);
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
