import { AppError } from '../shared/app-error';
import { TEST_EVENT } from './channel-events';
import type { NotificationMessage } from './notification-message';

/** How urgent a manual alert is: it picks the heading and colour of chat messages and e-mails. */
export const ALERT_SEVERITIES = ['info', 'warning', 'critical'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** What a delivery's message is before the ledger gives it its id. */
export type DraftMessage = Omit<NotificationMessage, 'id'>;

/** A channel as its test message names it. */
export interface TestedChannel {
  readonly publicId: string;
  readonly name: string;
  readonly type: string;
  readonly customerId: number | null;
  readonly monitorId: number | null;
}

/**
 * The test button's sample: event `test`, a summary that says so in words, and `data.test: true`
 * for a receiver's code, so nobody mistakes it for an incident. It concerns no incident; the
 * channel's customer and monitor are kept, so the customer sees the delivery in its ledger.
 */
export function testMessage(channel: TestedChannel, now: Date): DraftMessage {
  return {
    event: TEST_EVENT,
    occurredAt: now.toISOString(),
    summary: `This is a test notification for the channel "${channel.name}": no incident happened. If you can read this, the channel works.`,
    incidentId: null,
    monitorId: channel.monitorId,
    customerId: channel.customerId,
    data: { test: true, channel: { id: channel.publicId, name: channel.name, type: channel.type } },
  };
}

export interface ManualAlert {
  readonly title: string;
  readonly message: string | null;
  readonly severity: AlertSeverity;
  /** The customer the alert concerns; null: the organization as a whole. */
  readonly customerId: number | null;
}

/** An alert somebody sends by hand: event `alert.manual`; its title is the summary, its text and severity travel in data. */
export function manualAlertMessage(alert: ManualAlert, now: Date): DraftMessage {
  return {
    event: 'alert.manual',
    occurredAt: now.toISOString(),
    summary: alert.title,
    incidentId: null,
    monitorId: null,
    customerId: alert.customerId,
    data: { title: alert.title, message: alert.message, severity: alert.severity },
  };
}

/** What the recipient rule needs of a channel. */
export interface AlertRecipient {
  readonly publicId: string;
  readonly customerId: number | null;
}

/**
 * An alert about one customer goes only to channels of the organization or of that customer: a
 * named channel of another customer would tell that customer about someone else's business.
 * An alert about no customer may name any channel of the organization.
 */
export function assertRecipientsFit(alertCustomerId: number | null, channels: readonly AlertRecipient[]): void {
  if (alertCustomerId === null) return;
  const stranger = channels.find((c) => c.customerId !== null && c.customerId !== alertCustomerId);
  if (stranger) {
    throw new AppError(
      'invalidRequestBody',
      { field: 'channelIds', reason: 'otherCustomer', channelId: stranger.publicId },
      `channelIds: channel ${stranger.publicId} belongs to another customer than customerId`,
    );
  }
}
