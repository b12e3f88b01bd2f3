import { AppError } from '../../domain/shared/app-error';
import type { Clock } from '../shared/clock';
import type { RateLimitRule, RateLimiter } from '../shared/rate-limiter';

/** Limits: 600 events per minute per organization. */
export const IM_EVENT_RATE: RateLimitRule = { name: 'im-events', limit: 600, windowSeconds: 60 };

/**
 * Whether an organization may send one more event, decided before its body is read. Once a window
 * is used up, this process remembers it until the window ends and refuses without asking the shared
 * counter again: a flood past the limit costs no database round trip per request. Throws
 * imEventRateLimited (429, retryAfter, no code).
 */
export class AdmitImEvent {
  private readonly exhaustedUntil = new Map<number, number>();

  constructor(
    private readonly limiter: RateLimiter,
    private readonly clock: Clock,
    private readonly rule: RateLimitRule = IM_EVENT_RATE,
  ) {}

  async execute(organizationId: number): Promise<void> {
    const now = this.clock.now().getTime();
    const until = this.exhaustedUntil.get(organizationId);
    if (until !== undefined) {
      if (until > now) throw new AppError('imEventRateLimited', { retryAfter: Math.max(1, Math.ceil((until - now) / 1000)) });
      this.exhaustedUntil.delete(organizationId);
    }
    const decision = await this.limiter.hit(this.rule, String(organizationId));
    if (decision.allowed) return;
    this.exhaustedUntil.set(organizationId, now + decision.retryAfterSeconds * 1000);
    throw new AppError('imEventRateLimited', { retryAfter: decision.retryAfterSeconds });
  }
}
