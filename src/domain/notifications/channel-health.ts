import { CHANNEL_FAILING_EVENT, TEST_EVENT, type NotificationEvent } from './channel-events';
import type { NotificationMessage } from './notification-message';

/**
 * A channel's health, kept by the delivery ledger attempt by attempt: the streak of failed attempts
 * of the channel's own (its receiver refused, answered an error or never answered; retries count),
 * reset by one delivered; `failingSince` is set once the streak reached `failingAfter`, and
 * announced then.
 */
export interface ChannelHealth {
  readonly consecutiveFailures: number;
  readonly lastFailureAt: Date | null;
  readonly lastFailureReason: string | null;
  readonly lastSuccessAt: Date | null;
  readonly failingSince: Date | null;
}

export interface ChannelHealthPolicy {
  /** Consecutive failed attempts that make a channel failing. */
  readonly failingAfter: number;
}

/** healthy: the last attempt was delivered (or none failed); degraded: failing attempts, fewer than failingAfter; failing. */
export type ChannelHealthStatus = 'healthy' | 'degraded' | 'failing';

export const healthStatusOf = (health: ChannelHealth): ChannelHealthStatus =>
  health.failingSince !== null ? 'failing' : health.consecutiveFailures > 0 ? 'degraded' : 'healthy';

/** What needs attention about a channel, for the API's problem list. */
export interface ChannelProblem {
  readonly code: 'channelFailing';
  readonly message: string;
  readonly since: Date | null;
}

export function channelProblems(health: ChannelHealth & { isDefault: boolean }): ChannelProblem[] {
  if (health.failingSince === null) return [];
  const reason = health.lastFailureReason ? `; last: ${health.lastFailureReason}` : '';
  const where = health.isDefault
    ? 'this is the default channel, so they are not sent anywhere else'
    : "they are sent to the organization's default channel, if it has one";
  return [
    {
      code: 'channelFailing',
      message: `${health.consecutiveFailures} attempts in a row failed (${where})${reason}`,
      since: health.failingSince,
    },
  ];
}

/** Whether a streak makes the channel failing (announced once: when it is not marked failing yet). */
export const isFailingStreak = (consecutiveFailures: number, policy: ChannelHealthPolicy): boolean =>
  consecutiveFailures >= policy.failingAfter;

/**
 * Whether a delivery that failed for good is sent again to the organization's default channel: a
 * failed alert is never just dropped. Not a test (it tries that one channel), not a failing-channel
 * announcement (it is already about the notification system), and not a fallback itself (no chains).
 */
export const fallsBack = (event: NotificationEvent, isFallback: boolean): boolean =>
  !isFallback && event !== TEST_EVENT && event !== CHANNEL_FAILING_EVENT;

/** The channel a failed delivery falls back to: the organization's default, if enabled and not the failing channel itself. */
export function fallbackTarget<C extends { id: number; enabled: boolean }>(
  failingChannelId: number | null,
  defaultChannel: C | null,
): C | null {
  if (defaultChannel === null || !defaultChannel.enabled || defaultChannel.id === failingChannelId) return null;
  return defaultChannel;
}

/** What the default channel is told when a channel starts failing. */
export function channelFailingMessage(
  channel: { publicId: string; name: string; type: string; customerId: number | null },
  health: { consecutiveFailures: number; lastFailureReason: string | null },
  at: Date,
): Omit<NotificationMessage, 'id'> {
  const reason = health.lastFailureReason ? ` (last: ${health.lastFailureReason})` : '';
  return {
    event: CHANNEL_FAILING_EVENT,
    occurredAt: at.toISOString(),
    summary: `Notification channel "${channel.name}" is failing: ${health.consecutiveFailures} attempts in a row failed${reason}`,
    incidentId: null,
    monitorId: null,
    customerId: null,
    data: {
      channelId: channel.publicId,
      channelName: channel.name,
      channelType: channel.type,
      channelCustomerId: channel.customerId,
      consecutiveFailures: health.consecutiveFailures,
      lastFailureReason: health.lastFailureReason,
      failingSince: at.toISOString(),
    },
  };
}
