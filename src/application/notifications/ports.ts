import type { SecurityNoticeEvent } from '../../domain/identity/events';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { NotificationChannel } from '../../domain/notifications/notification-channel';
import type { OrganizationSmtp, SmtpSecurity } from '../../domain/notifications/organization-smtp';
import { token } from '../shared/token';
import type { TargetPolicy } from '../shared/target-policy';
import type { Transaction } from '../shared/transaction';
import type { SmsSendOutcome } from './delivery-ports';

export interface ChannelFilter {
  /** Channels of this customer (its own and its monitors' overrides). */
  customerId?: number;
  /** Overrides of this monitor. */
  monitorId?: number;
  /** Organization-wide channels only. */
  organizationOnly?: boolean;
}

/**
 * Notification channels. A customer-scoped scope reaches its customer's channels only (the
 * organization's are out of scope: null, as for another tenant's). Optimistic concurrency on save
 * (`conflict`). Removing a channel removes the overrides made of it.
 */
export interface NotificationChannelRepository {
  add(channel: NotificationChannel, tx: Transaction): Promise<NotificationChannel>;
  findByRef(scope: TenantScope, ref: string): Promise<NotificationChannel | null>;
  /** The channels in scope among these public ids, in one question (a delivery round's channels); the others are not found. */
  findByPublicIds(scope: TenantScope, publicIds: readonly string[]): Promise<NotificationChannel[]>;
  list(scope: TenantScope, filter: ChannelFilter): Promise<NotificationChannel[]>;
  /** Every channel of the organization with exactly this customer and monitor (the recipient rule's scope). */
  sameScope(organizationId: number, customerId: number | null, monitorId: number | null): Promise<NotificationChannel[]>;
  /** The overrides made of a source channel. */
  overridesOf(organizationId: number, sourceChannelId: number): Promise<NotificationChannel[]>;
  /** What routing needs for an event: the organization's, the customer's and the monitor's channels. */
  forEvent(organizationId: number, customerId: number | null, monitorId: number | null): Promise<NotificationChannel[]>;
  /** What routing needs for many events at once: the organization's channels and all of these customers' (overrides included). */
  forCustomers(organizationId: number, customerIds: readonly number[]): Promise<NotificationChannel[]>;
  save(channel: NotificationChannel, tx: Transaction): Promise<void>;
  remove(channel: NotificationChannel, tx: Transaction): Promise<void>;
  /** The reads on the caller's transaction (a read inside its work runs on its connection, not on the pool). */
  readsIn(tx: Transaction): ChannelReads;
}

/** What a write's transaction reads of the channels before it writes. */
export type ChannelReads = Pick<NotificationChannelRepository, 'findByRef' | 'list' | 'sameScope' | 'overridesOf'>;
export const NOTIFICATION_CHANNEL_REPOSITORY = token<NotificationChannelRepository>('NotificationChannelRepository');

/**
 * The customers and monitors a channel can belong to, as the caller sees them (null: not visible), and
 * the people a channel may name.
 */
export interface ChannelOwners {
  customer(scope: TenantScope, ref: string): Promise<{ id: number } | null>;
  monitor(scope: TenantScope, ref: string): Promise<{ id: number; customerId: number } | null>;
  /**
   * Among `userIds` (lowercase uuids), the users of the organization who see a channel of this
   * customer: organization-wide users, and that customer's own users (customerId null, an
   * organization channel: organization-wide users only). A user of another organization is simply
   * not among them.
   */
  usersSeeing(organizationId: number, customerId: number | null, userIds: readonly string[], tx: Transaction): Promise<Set<string>>;
}
export const CHANNEL_OWNERS = token<ChannelOwners>('ChannelOwners');

export interface OrganizationSmtpStore {
  get(organizationId: number): Promise<OrganizationSmtp | null>;
  put(settings: OrganizationSmtp, tx: Transaction): Promise<void>;
  remove(organizationId: number, tx: Transaction): Promise<boolean>;
}
export const ORGANIZATION_SMTP_STORE = token<OrganizationSmtpStore>('OrganizationSmtpStore');

/** One SMTP server to try: the name (for TLS) and the address the target policy vetted (to dial). */
export interface SmtpProbe {
  hostname: string;
  address: string;
  port: number;
  security: SmtpSecurity;
  username: string | null;
  password: string | null;
}

/** Connects and authenticates (EHLO, TLS as configured, AUTH), sending nothing. */
export interface SmtpVerifier {
  verify(probe: SmtpProbe): Promise<{ ok: true } | { ok: false; reason: string }>;
}
export const SMTP_VERIFIER = token<SmtpVerifier>('SmtpVerifier');

/**
 * Signs a webhook delivery: the headers a receiver checks. X-Webhook-Signature is
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`; X-Webhook-Id carries the delivery's
 * idempotency key, so a receiver recognizes a retry after a lost answer.
 */
export interface WebhookSigner {
  sign(secret: string, body: string, at: Date, deliveryId: string): Record<string, string>;
}
export const WEBHOOK_SIGNER = token<WebhookSigner>('WebhookSigner');

/**
 * The target policy every notification connection is vetted with (SMTP servers, webhook and chat
 * receivers): the one instance of the service (CHECK_PRIVATE_ALLOWLIST applies), under its own
 * token so that rebinding the checks' TARGET_POLICY (check-engine tests) leaves it unchanged.
 */
export const NOTIFICATION_TARGET_POLICY = token<TargetPolicy>('NotificationTargetPolicy');

// Deliveries (outbox, ledger, direct messages, senders, SMS) and storms with channel health, in their own files.
export * from './delivery-ports';
export * from './storm-ports';

/** A phone-call gateway (the voice transport): calls one E.164 number to do what the TwiML says (its call's id as `messageId`). */
export interface VoiceProvider {
  call(to: string, twiml: string): Promise<SmsSendOutcome>;
}

/** A security notice of the outbox (the identity context's event), with its row's id. */
export interface PendingSecurityNotice {
  readonly id: number;
  readonly event: SecurityNoticeEvent;
}

/**
 * The identity context's security notices not sent yet, read and marked in the caller's unit of work
 * (rows another worker holds are skipped); a row the event decoder refuses is set aside and logged.
 */
export interface SecurityNoticeFeed {
  /** Locks the rows it answers (on `tx` when given). */
  next(limit: number, tx: Transaction): Promise<PendingSecurityNotice[]>;
  /** The notices were handed to the delivery ledger. */
  markSent(ids: readonly number[], at: Date, tx: Transaction): Promise<void>;
}
export const SECURITY_NOTICE_FEED = token<SecurityNoticeFeed>('SecurityNoticeFeed');
