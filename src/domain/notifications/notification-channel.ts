import { resourceKeyOf } from '../shared/resource-key';
import { AppError } from '../shared/app-error';
import { CHANNEL_EVENTS, type ChannelEvent } from './channel-events';
import { type ChannelConfig, type ChannelType, normalizeChannelConfig, recipientsOf } from './channel-config';
import type { AddressAllowance } from './channel-url';
import type { ChannelHealth } from './channel-health';
import { isSigned } from './notifiers';

/** Where a channel applies: the organization, one customer, or one monitor (an override of a source channel). */
export interface ChannelScope {
  readonly customerId: number | null;
  readonly monitorId: number | null;
  /** Set exactly when monitorId is: the organization or customer channel this one replaces for that monitor. */
  readonly sourceChannelId: number | null;
}

export interface NewChannel {
  publicId: string;
  organizationId: number;
  scope: ChannelScope;
  name: string;
  type: ChannelType;
  config: ChannelConfig;
  events?: readonly ChannelEvent[];
  enabled?: boolean;
  /** The organization's default channel (organization channels only): failed deliveries fall back to it. */
  isDefault?: boolean;
  /** The client's stable key (monitoring as code), unique in the organization. */
  key?: string | null;
  now: Date;
}

export interface ChannelChange {
  key?: string | null;
  name?: string;
  type?: ChannelType;
  config?: ChannelConfig;
  events?: readonly ChannelEvent[];
  enabled?: boolean;
  isDefault?: boolean;
}

/**
 * A notification channel: where alerts of its scope go, for the events it lists. The webhook
 * signing secret is kept sealed (secretCiphertext); the domain never sees it in the clear.
 */
export class NotificationChannel implements ChannelHealth {
  id!: number;
  publicId: string;
  organizationId: number;
  customerId: number | null;
  monitorId: number | null;
  sourceChannelId: number | null;
  /** A stable key chosen by the client (monitoring as code), unique in the organization; null when unset. */
  key: string | null;
  name: string;
  type: ChannelType;
  config: ChannelConfig;
  events: ChannelEvent[];
  enabled: boolean;
  secretCiphertext: string | null = null;
  isDefault: boolean;
  /** Health, kept by the delivery ledger (never written through the channel's own changes). */
  consecutiveFailures = 0;
  lastFailureAt: Date | null = null;
  lastFailureReason: string | null = null;
  lastSuccessAt: Date | null = null;
  failingSince: Date | null = null;
  createdAt: Date;
  updatedAt: Date;
  version = 1;

  constructor(props: NewChannel, allowsPrivate?: AddressAllowance) {
    this.publicId = props.publicId;
    this.organizationId = props.organizationId;
    this.customerId = props.scope.customerId;
    this.monitorId = props.scope.monitorId;
    this.sourceChannelId = props.scope.sourceChannelId;
    this.key = resourceKeyOf(props.key) ?? null;
    this.name = props.name;
    this.type = props.type;
    this.config = normalizeChannelConfig(props.type, props.config, allowsPrivate);
    this.events = eventList(props.events);
    this.enabled = props.enabled ?? true;
    this.isDefault = false;
    if (props.isDefault) this.makeDefault(true);
    this.createdAt = props.now;
    this.updatedAt = props.now;
  }

  get isOverride(): boolean {
    return this.monitorId !== null;
  }

  /** Whether the change switches the type (the caller then seals a new secret for a signed type, a webhook). */
  update(change: ChannelChange, now: Date, allowsPrivate?: AddressAllowance): void {
    const typeChanges = change.type !== undefined && change.type !== this.type;
    if (typeChanges && change.config === undefined) throw new AppError('configRequiredForTypeChange', { from: this.type, to: change.type });
    const type = change.type ?? this.type;
    if (change.config !== undefined) this.config = normalizeChannelConfig(type, change.config, allowsPrivate);
    this.type = type;
    if (!isSigned(type)) this.secretCiphertext = null;
    const key = resourceKeyOf(change.key);
    if (key !== undefined) this.key = key;
    if (change.name !== undefined) this.name = change.name;
    if (change.events !== undefined) this.events = eventList(change.events);
    if (change.enabled !== undefined) this.enabled = change.enabled;
    if (change.isDefault !== undefined) this.makeDefault(change.isDefault);
    this.updatedAt = now;
  }

  /** Only an organization channel can be the organization's default (the caller unsets the previous one). */
  makeDefault(isDefault: boolean): void {
    if (isDefault && (this.customerId !== null || this.monitorId !== null)) {
      throw new AppError('invalidRequestBody', { field: 'isDefault', reason: 'organizationChannelsOnly' });
    }
    this.isDefault = isDefault;
  }

  /** Same organization, customer and monitor. */
  sameScopeAs(other: NotificationChannel): boolean {
    return this.organizationId === other.organizationId && this.customerId === other.customerId && this.monitorId === other.monitorId;
  }

  recipients(): string[] {
    return recipientsOf(this.type, this.config);
  }
}

/**
 * notificationChannelRecipientExists (data.channelId): an enabled channel of the same type and
 * scope already reaches one of this channel's recipients. A disabled channel claims nothing, and
 * neither does this one while disabled.
 */
export function assertRecipientsFree(channel: NotificationChannel, others: readonly NotificationChannel[]): void {
  if (!channel.enabled) return;
  const mine = new Set(channel.recipients());
  const taken = others.find(
    (other) =>
      other.publicId !== channel.publicId &&
      other.enabled &&
      other.type === channel.type &&
      other.sameScopeAs(channel) &&
      other.recipients().some((r) => mine.has(r)),
  );
  if (taken) throw new AppError('notificationChannelRecipientExists', { channelId: taken.id });
}

/**
 * A monitor override replaces a channel of the organization or of the monitor's customer, at most
 * once per monitor; an override is never itself a source.
 */
export function assertOverridable(
  source: NotificationChannel,
  monitor: { id: number; customerId: number },
  overrides: readonly NotificationChannel[],
): void {
  if (source.isOverride || (source.customerId !== null && source.customerId !== monitor.customerId)) {
    throw new AppError('invalidSourceChannelId', { reason: source.isOverride ? 'sourceIsOverride' : 'otherCustomer' });
  }
  const existing = overrides.find((o) => o.monitorId === monitor.id && o.sourceChannelId === source.id);
  if (existing) throw new AppError('websiteChannelOverrideExists', { channelId: existing.id });
}

function eventList(events: readonly ChannelEvent[] | undefined): ChannelEvent[] {
  if (events === undefined) return [...CHANNEL_EVENTS];
  if (events.length === 0) throw new AppError('invalidRequestBody', { field: 'events', reason: 'empty' });
  return CHANNEL_EVENTS.filter((event) => events.includes(event));
}
