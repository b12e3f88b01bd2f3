import type { Transaction } from '../shared/transaction';
import type { AckGrant, AckGrantKind, PushSubscription } from '../../domain/on-call/web-push';
import { token } from '../shared/token';

/** The devices people subscribed to Web Push, by organization and user; endpoints and auth secrets sealed at rest. */
export interface PushSubscriptionStore {
  /** Adds the subscription, or (the same endpoint subscribed again by its user) answers the one kept. */
  put(subscription: PushSubscription, tx: Transaction): Promise<PushSubscription>;
  list(organizationId: number, userId: string): Promise<PushSubscription[]>;
  find(organizationId: number, id: string): Promise<PushSubscription | null>;
  /**
   * The devices of those users who, now, still see a channel of that scope (organization-wide users;
   * for a customer's channel, that customer's users too) and are active: a person deactivated, or
   * of another customer, is not rung by a channel that named them when it was made.
   */
  ofUsersSeeing(organizationId: number, customerId: number | null, userIds: readonly string[]): Promise<PushSubscription[]>;
  /** Removes it (and the web-push contact methods naming it); false when there was none of this user. */
  remove(organizationId: number, userId: string, id: string, tx: Transaction): Promise<boolean>;
  /** The push service said the subscription is gone (404, 410): dropped, whoever's it was. */
  drop(organizationId: number, id: string): Promise<void>;
}
export const PUSH_SUBSCRIPTION_STORE = token<PushSubscriptionStore>('PushSubscriptionStore');

/** Acknowledgement grants, kept by their token's hash; `use` marks one used only if it was not (single use, in the database). */
export interface AckGrantStore {
  issue(tokenHash: string, grant: Omit<AckGrant, 'usedAt'>, now: Date): Promise<void>;
  find(tokenHash: string): Promise<AckGrant | null>;
  /** Marks it used at `now` if it is unused and unexpired; answers whether this call did. */
  use(tokenHash: string, now: Date, tx: Transaction): Promise<boolean>;
}
export const ACK_GRANT_STORE = token<AckGrantStore>('AckGrantStore');

/** The deployment's VAPID key pair (RFC 8292), made once and kept (the private key sealed). */
export interface VapidKeys {
  keys(): Promise<{ publicKey: string; privateKey: string }>;
}
export const VAPID_KEYS = token<VapidKeys>('VapidKeys');

/** What one push came to: the push service's status (201 taken), or no answer. */
export interface PushDelivery {
  readonly statusCode: number | null;
  readonly retryAfterMs: number | null;
  readonly error: string | null;
  readonly latencyMs: number;
}

/** Encrypts a payload to a subscription (RFC 8291, aes128gcm) and posts it with VAPID to its endpoint, through the target policy. */
export interface PushTransport {
  push(subscription: PushSubscription, payload: string, options: { ttlSeconds: number; urgency: 'high' | 'normal' }): Promise<PushDelivery>;
}
export const PUSH_TRANSPORT = token<PushTransport>('PushTransport');

/** A grant to acknowledge one incident, as the notification carries it. */
export interface GrantRequest {
  readonly organizationId: number;
  readonly userId: string;
  readonly kind: AckGrantKind;
  readonly incidentRef: string;
}
