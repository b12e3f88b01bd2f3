import { envelopeOf, EventRefused, type DomainEvent, type EventCodec } from '../shared/domain-event';

/**
 * The identity context's events (version 1 each): a security notice was raised for the
 * organization's administrators (an account deletion requested or withdrawn). The notice names its
 * administrators as they were when it was raised (the active administrators of the organization,
 * none of a customer), so its recipients do not change while it waits to be sent.
 */
export const IDENTITY_EVENT_KINDS = ['identity.securityNotice'] as const;
export type IdentityEventKind = (typeof IDENTITY_EVENT_KINDS)[number];

/** An administrator a notice is for: the user and the address it goes to. */
export interface NoticeRecipient {
  readonly userId: string;
  readonly email: string;
}

export interface SecurityNoticeEvent extends DomainEvent<'identity.securityNotice', 1> {
  readonly subject: string;
  readonly body: string;
  readonly administrators: readonly NoticeRecipient[];
}

/** What the identity context tells others. */
export type IdentityEvent = SecurityNoticeEvent;

/** The row: the envelope (summary = the subject), `subject`, `body` and `administrators` ({ userId, email }). */
export const identityEventCodec: EventCodec<IdentityEvent> = {
  kinds: IDENTITY_EVENT_KINDS,
  encode: (event) => ({
    organizationId: event.organizationId,
    kind: event.kind,
    summary: event.subject,
    payload: {
      ...envelopeOf(event, null, event.subject),
      subject: event.subject,
      body: event.body,
      administrators: event.administrators.map((a) => ({ userId: a.userId, email: a.email })),
    },
  }),
  decode: (kind, p) => ({
    kind,
    version: p.version1(),
    organizationId: p.integer('organizationId'),
    occurredAt: p.date('occurredAt'),
    subject: p.string('subject'),
    body: p.string('body'),
    administrators: p.array('administrators').map(recipientOf),
  }),
};

function recipientOf(value: unknown): NoticeRecipient {
  const recipient = (value ?? {}) as { userId?: unknown; email?: unknown };
  if (typeof recipient.userId !== 'string' || typeof recipient.email !== 'string' || recipient.email === '') {
    throw new EventRefused('identity.securityNotice: an administrator is not a user id and an e-mail address');
  }
  return { userId: recipient.userId, email: recipient.email };
}
