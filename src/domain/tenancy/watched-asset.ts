export const WATCH_STATUSES = ['active', 'paused'] as const;
/** `paused` keeps the record but the check engine skips it. */
export type WatchStatus = (typeof WATCH_STATUSES)[number];

/** Who is told about a domain's or IP's findings, beside the customer's own settings. */
export interface WatchNotifications {
  notificationPhoneNumber: string | null;
  notificationEmail: string | null;
}
