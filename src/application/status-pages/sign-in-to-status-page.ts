import { AppError } from '../../domain/shared/app-error';
import type { Clock } from '../shared/clock';
import type { RateLimiter, RateLimitRule } from '../shared/rate-limiter';
import type { PasswordHasher } from '../identity/ports';
import type { PageAccessTokens, StatusPageRepository } from './ports';
import type { PublicPageRef } from './get-public-status-page';

/**
 * Password attempts on one private page, from one client address, then from everyone: each tier
 * locks for longer (a minute, an hour, a day), so guessing slows down the more it is tried. Every
 * attempt counts, right or wrong, before the password is verified; a visitor who types their
 * password a few times a day never meets a limit.
 */
export const PAGE_PASSWORD_LIMITS: { readonly perClient: readonly RateLimitRule[]; readonly perPage: readonly RateLimitRule[] } = {
  perClient: [
    { name: 'status-page-password-client-minute', limit: 5, windowSeconds: 60 },
    { name: 'status-page-password-client-hour', limit: 20, windowSeconds: 3600 },
    { name: 'status-page-password-client-day', limit: 50, windowSeconds: 86_400 },
  ],
  perPage: [
    { name: 'status-page-password-page-minute', limit: 60, windowSeconds: 60 },
    { name: 'status-page-password-page-day', limit: 2_000, windowSeconds: 86_400 },
  ],
};

/** A lock-out the host logs: which page, which client, which limit, for how long. */
export interface PasswordLockout {
  readonly pageId: number;
  readonly ip: string | undefined;
  readonly limit: string;
  readonly retryAfterSeconds: number;
}

/**
 * A visitor gives a private page's password: answers the access token its cookie carries. The
 * password is checked against its argon2id digest (the comparison takes the same time whatever the
 * guess); attempts are limited per client address and per page (PAGE_PASSWORD_LIMITS): over a
 * limit, 429 rateLimited with retryAfter, and the lock-out is reported to `onLockout`.
 */
export class SignInToStatusPage {
  constructor(
    private readonly pages: StatusPageRepository,
    private readonly hasher: PasswordHasher,
    private readonly tokens: PageAccessTokens,
    private readonly clock: Clock,
    private readonly limiter: RateLimiter,
  ) {}

  async execute(
    ref: PublicPageRef,
    input: { password: string; ip: string | undefined },
    onLockout?: (lockout: PasswordLockout) => void,
  ): Promise<{ slug: string; token: string }> {
    const page = 'slug' in ref ? await this.pages.findBySlug(ref.slug) : await this.pages.findById(ref.pageId);
    if (!page) throw new AppError('statusPageNotFound');
    if (!page.admitsAddress(input.ip)) throw new AppError('forbidden', {}, 'This status page is not shown to your network');
    if (page.passwordHash === null) return { slug: page.slug, token: '' };
    const attempts = [
      ...PAGE_PASSWORD_LIMITS.perClient.map((rule) => ({ rule, key: `${page.id}:${input.ip ?? 'unknown'}` })),
      ...PAGE_PASSWORD_LIMITS.perPage.map((rule) => ({ rule, key: String(page.id) })),
    ];
    const decisions = await Promise.all(attempts.map(({ rule, key }) => this.limiter.hit(rule, key)));
    const refused = decisions
      .map((decision, i) => ({ decision, rule: attempts[i]!.rule }))
      .filter(({ decision }) => !decision.allowed)
      .sort((a, b) => b.decision.retryAfterSeconds - a.decision.retryAfterSeconds)[0];
    if (refused) {
      const retryAfter = Math.max(1, refused.decision.retryAfterSeconds);
      onLockout?.({ pageId: page.id, ip: input.ip, limit: refused.rule.name, retryAfterSeconds: retryAfter });
      throw new AppError('rateLimited', { retryAfter }, 'Too many password attempts for this status page; try again later');
    }
    if (!(await this.hasher.verify(page.passwordHash, input.password))) throw new AppError('statusPagePasswordInvalid');
    return { slug: page.slug, token: this.tokens.issue(page, this.clock.now()) };
  }
}
