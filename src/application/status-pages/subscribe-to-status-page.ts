import { AppError } from '../../domain/shared/app-error';
import { Subscriber } from '../../domain/status-pages/subscriber';
import type { DirectDeliveries } from '../notifications/ports';
import type { Clock } from '../shared/clock';
import type { RateLimiter, RateLimitRule } from '../shared/rate-limiter';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import type { ComponentCatalog, PageAccessTokens, StatusPageRepository, SubscriberRepository } from './ports';
import type { PublicPageRef, Visitor } from './get-public-status-page';
import { alreadySubscribed, confirmation, type SubscriberLinks } from './subscriber-messages';
import { componentKeysOf } from './page-components';

/**
 * Subscriptions one address may start on one page per hour: anyone may subscribe, so without a
 * limit a page could be used to mail confirmation links to any number of strangers.
 */
export const SUBSCRIBE_LIMIT: RateLimitRule = { name: 'status-page-subscribe', limit: 10, windowSeconds: 3600 };

/**
 * A visitor subscribes by e-mail (POST /status/{slug}/subscribe): the subscription waits for the
 * link sent to the address (double opt-in), written to the delivery ledger with the subscription.
 * The answer is the same whatever the address's state (new, waiting for confirmation, confirmed,
 * unsubscribed), so it tells a visitor nothing about who subscribes; the mail does the rest: a new
 * or waiting address gets the confirmation link (once), a confirmed one a note that it is already
 * subscribed with the link to stop. A private page must be readable first; each visitor's address
 * may start SUBSCRIBE_LIMIT subscriptions per page and hour (rateLimited).
 */
export class SubscribeToStatusPage {
  constructor(
    private readonly pages: StatusPageRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly catalog: ComponentCatalog,
    private readonly tokens: PageAccessTokens,
    private readonly deliveries: DirectDeliveries,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly links: SubscriberLinks,
    private readonly clock: Clock,
    private readonly limiter: RateLimiter,
  ) {}

  async execute(ref: PublicPageRef, visitor: Visitor, input: { email: string; componentIds: string[] }): Promise<{ slug: string }> {
    const page = 'slug' in ref ? await this.pages.findBySlug(ref.slug) : await this.pages.findById(ref.pageId);
    if (!page) throw new AppError('statusPageNotFound');
    const now = this.clock.now();
    if (!page.admitsAddress(visitor.ip) || (page.passwordHash !== null && !this.tokens.verify(page, visitor.accessToken, now))) {
      throw new AppError('forbidden', {}, 'Sign in to this status page first');
    }
    const decision = await this.limiter.hit(SUBSCRIBE_LIMIT, `${page.id}:${visitor.ip ?? 'unknown'}`);
    if (!decision.allowed) throw new AppError('rateLimited', { retryAfter: decision.retryAfterSeconds });
    const componentKeys = await componentKeysOf(this.catalog, page, input.componentIds);
    const fresh = Subscriber.email(
      {
        pageId: page.id,
        organizationId: page.organizationId,
        address: input.email,
        componentKeys,
        token: `${this.ids.uuid()}${this.ids.uuid()}`.replace(/-/g, ''),
      },
      now,
    );
    return this.tx.run(async (tx) => {
      const { subscriber } = await this.subscribers.add(fresh, tx);
      const message = subscriber.confirmed
        ? alreadySubscribed(this.links, page, subscriber, now)
        : confirmation(this.links, page, subscriber);
      await this.deliveries.enqueue([message], now, tx);
      return { slug: page.slug };
    });
  }
}
