import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { SecretTokens } from '../identity/ports';
import type { CalendarFeeds, ScheduleRepository } from './ports';
import { loadSchedule } from './schedule-access';

/** Prefix of calendar feed tokens (they sit in a URL a calendar app polls). */
export const CALENDAR_TOKEN_PREFIX = 'wsmcal_';

/**
 * POST /api/im/schedules/{id}/calendar-feed and POST /api/im/on-call/calendar-feed (the caller's own
 * shifts): a new secret feed token, answered once and stored as a digest. Issuing again retires the
 * previous URL, which is how a leaked URL is revoked. Any IM user may subscribe to a schedule.
 */
export class IssueCalendarFeed {
  constructor(
    private readonly schedules: ScheduleRepository,
    private readonly feeds: CalendarFeeds,
    private readonly tokens: SecretTokens,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { scheduleId: string } | { forCaller: true }): Promise<{ token: string }> {
    const organizationId = actor.scope.organizationId;
    let subject: { scheduleId: string; userId: null } | { scheduleId: null; userId: string };
    if ('scheduleId' in input) {
      subject = { scheduleId: (await loadSchedule(this.schedules, actor, input.scheduleId)).id, userId: null };
    } else {
      if (actor.userId === null) throw new AppError('imAccessDenied');
      subject = { scheduleId: null, userId: actor.userId };
    }
    const token = this.tokens.generate(CALENDAR_TOKEN_PREFIX);
    const feed = { organizationId, subject, tokenHash: this.tokens.hash(token), createdAt: this.clock.now() };
    await this.tx.run((tx) => this.feeds.replace(feed, tx));
    return { token };
  }
}
