import type { CheckStatus } from '../results/check-status';

/**
 * What an incident's timeline shows: its opening (with the reports of the failing locations),
 * later location changes, reminders, acknowledgement, updates people post (a note in `message`)
 * and resolution.
 */
export const TIMELINE_KINDS = ['opened', 'locationReport', 'reminder', 'acknowledged', 'update', 'resolved'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export class TimelineEntry {
  id!: number;
  incidentId: number;
  kind: TimelineKind;
  at: Date;
  location: string | null;
  status: CheckStatus | null;
  reasonCode: string | null;
  message: string | null;
  userId: string | null;

  constructor(props: {
    incidentId: number;
    kind: TimelineKind;
    at: Date;
    location?: string | null;
    status?: CheckStatus | null;
    reasonCode?: string | null;
    message?: string | null;
    userId?: string | null;
  }) {
    this.incidentId = props.incidentId;
    this.kind = props.kind;
    this.at = props.at;
    this.location = props.location ?? null;
    this.status = props.status ?? null;
    this.reasonCode = props.reasonCode ?? null;
    this.message = props.message ?? null;
    this.userId = props.userId ?? null;
  }
}
