import { AppError } from '../../domain/shared/app-error';
import { onCallTimeline } from '../../domain/on-call/on-call';
import type { Schedule } from '../../domain/on-call/schedule';
import type { SecretTokens } from '../identity/ports';
import type { Clock } from '../shared/clock';
import type { CalendarFeeds, ImPeople, ScheduleRepository } from './ports';

const DAY_MS = 86_400_000;
/** The span a feed covers around now: calendar apps poll, so a recent past and a few months ahead suffice. */
export const FEED_PAST_DAYS = 14;
export const FEED_FUTURE_DAYS = 90;

export interface CalendarShift {
  readonly scheduleId: string;
  readonly scheduleName: string;
  readonly userId: string;
  readonly userName: string;
  readonly start: Date;
  readonly end: Date;
}

export interface CalendarView {
  readonly name: string;
  readonly generatedAt: Date;
  readonly shifts: CalendarShift[];
}

/**
 * GET /api/im/calendar/{token}: the feed a calendar app subscribed to, found by the token's digest
 * (no session: the URL is the secret). A retired or unknown token, or an organization whose IM is
 * off, answers calendarFeedNotFound alike, so the URL reveals nothing.
 */
export class ReadCalendarFeed {
  constructor(
    private readonly feeds: CalendarFeeds,
    private readonly schedules: ScheduleRepository,
    private readonly people: ImPeople,
    private readonly tokens: SecretTokens,
    private readonly clock: Clock,
  ) {}

  async execute({ token }: { token: string }): Promise<CalendarView> {
    const feed = await this.feeds.findByTokenHash(this.tokens.hash(token));
    if (!feed || !(await this.people.imEnabled(feed.organizationId))) throw new AppError('calendarFeedNotFound');
    const now = this.clock.now();
    const from = new Date(now.getTime() - FEED_PAST_DAYS * DAY_MS);
    const to = new Date(now.getTime() + FEED_FUTURE_DAYS * DAY_MS);
    const { scheduleId, userId } = feed.subject;
    const schedules: Schedule[] =
      scheduleId !== null
        ? [await this.schedules.find(feed.organizationId, scheduleId)].filter((s): s is Schedule => s !== null)
        : await this.schedules.list(feed.organizationId);
    const shifts = schedules.flatMap((schedule) =>
      onCallTimeline(schedule, from, to)
        .filter((segment) => userId === null || segment.userId === userId)
        .map((segment) => ({
          scheduleId: schedule.id,
          scheduleName: schedule.name,
          userId: segment.userId,
          start: segment.start,
          end: segment.end,
        })),
    );
    const names = await this.people.named(feed.organizationId, [...new Set([...shifts.map((s) => s.userId), ...(userId ? [userId] : [])])]);
    const name = scheduleId !== null ? `On call: ${schedules[0]?.name ?? 'schedule'}` : `On call: ${names.get(userId!) ?? 'me'}`;
    return { name, generatedAt: now, shifts: shifts.map((s) => ({ ...s, userName: names.get(s.userId) ?? s.userId })) };
  }
}
