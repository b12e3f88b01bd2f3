import { AppError } from '../shared/app-error';

/**
 * A browser's push subscription (the Push API's PushSubscription): the push service's endpoint,
 * the device's P-256 public key (`p256dh`) and auth secret (`auth`) the payload is encrypted to
 * (RFC 8291). It belongs to one user of one organization; a user subscribes each device once.
 */
export interface PushSubscription {
  readonly id: string;
  readonly organizationId: number;
  readonly userId: string;
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
  /** What the person calls the device ("Phone"), or null. */
  readonly label: string | null;
  readonly createdAt: Date;
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** The bytes of a base64url value, or null when it is not one. */
function base64urlBytes(value: string): number | null {
  if (!BASE64URL.test(value)) return null;
  const bare = value.replace(/=+$/, '');
  return Math.floor((bare.length * 3) / 4);
}

/**
 * Throws validationFailed naming the field unless the subscription is one a push service could have
 * given: an https endpoint (http only for a loopback push service, which the target policy judges
 * anyway) without credentials, a 65-byte uncompressed P-256 key and a 16-byte auth secret.
 */
export function assertPushSubscription(input: { endpoint: string; p256dh: string; auth: string }): void {
  let url: URL;
  try {
    url = new URL(input.endpoint);
  } catch {
    throw new AppError('validationFailed', { field: 'endpoint', reason: 'notAUrl' });
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username !== '' || url.password !== '' || input.endpoint.length > 2048)
    throw new AppError('validationFailed', { field: 'endpoint', reason: 'notAPushEndpoint' });
  if (base64urlBytes(input.p256dh) !== 65) throw new AppError('validationFailed', { field: 'keys.p256dh', reason: 'notAP256Key' });
  if (base64urlBytes(input.auth) !== 16) throw new AppError('validationFailed', { field: 'keys.auth', reason: 'notAnAuthSecret' });
}

/** How long the acknowledgement grant a notification carries stays good. */
export const ACK_GRANT_TTL_MS = 30 * 60_000;

/** What a grant acknowledges: a monitor incident (`incident`) or an incident-management one (`im`). */
export type AckGrantKind = 'incident' | 'im';

/** A grant as stored (its token only as a hash): single use, bound to one incident of one organization and to the user paged. */
export interface AckGrant {
  readonly organizationId: number;
  readonly userId: string;
  readonly kind: AckGrantKind;
  /** The incident's reference as the notification names it (a monitor incident's public id, an IM incident's id). */
  readonly incidentRef: string;
  readonly expiresAt: Date;
  readonly usedAt: Date | null;
}

/**
 * Why a grant presented for `incidentRef` does not acknowledge, or null when it does: unknown
 * (pushGrantInvalid), for another incident or organization (pushGrantMismatch), used already
 * (pushGrantUsed), past its time (pushGrantExpired).
 */
export function ackGrantRefusal(
  grant: AckGrant | null,
  incidentRef: string,
  now: Date,
): 'pushGrantInvalid' | 'pushGrantMismatch' | 'pushGrantUsed' | 'pushGrantExpired' | null {
  if (!grant) return 'pushGrantInvalid';
  if (grant.incidentRef !== incidentRef) return 'pushGrantMismatch';
  if (grant.usedAt !== null) return 'pushGrantUsed';
  if (grant.expiresAt.getTime() <= now.getTime()) return 'pushGrantExpired';
  return null;
}

/** What a push message carries (encrypted to the device): what the service worker shows and does. */
export interface PushPayload {
  readonly title: string;
  readonly body: string;
  /** The console's page the notification opens. */
  readonly url: string;
  /** Notifications with one tag replace each other (an incident's later news replaces its earlier). */
  readonly tag: string;
  /** When present, the notification's "Acknowledge" action posts `{grant}` to `ackUrl`. */
  readonly ack?: { readonly url: string; readonly grant: string };
  readonly sentAt: string;
}

const TITLE_MAX = 120;
const BODY_MAX = 600;
const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** Where the console shows an incident, and where a grant acknowledges it. */
export function incidentPaths(kind: AckGrantKind, ref: string): { page: string; ack: string } {
  const id = encodeURIComponent(ref);
  return kind === 'incident'
    ? { page: `/app/incidents/${id}`, ack: `/api/push/incidents/${id}/acknowledge` }
    : { page: `/app/on-call/incidents/${id}`, ack: `/api/push/im-incidents/${id}/acknowledge` };
}

/** A push message's payload: title and body cut to fit a push message (at most 4 KB once encrypted). */
export function pushPayload(input: {
  title: string;
  body: string;
  url: string;
  tag: string;
  ack: { url: string; grant: string } | null;
  sentAt: Date;
}): PushPayload {
  return {
    title: cut(input.title, TITLE_MAX),
    body: cut(input.body, BODY_MAX),
    url: input.url,
    tag: input.tag,
    ...(input.ack ? { ack: input.ack } : {}),
    sentAt: input.sentAt.toISOString(),
  };
}
