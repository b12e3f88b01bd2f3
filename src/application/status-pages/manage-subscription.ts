import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { Clock } from '../shared/clock';
import type { StatusPageRepository, SubscriberRepository } from './ports';
import type { PublicPageRef } from './get-public-status-page';

/**
 * The links in subscribers' messages: confirm (the double opt-in) and unsubscribe (one click, RFC
 * 8058). The token is the subscriber's secret; an unknown token answers subscriberNotFound.
 */
export class ManageSubscription {
  constructor(
    private readonly pages: StatusPageRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async confirm(ref: PublicPageRef, token: string): Promise<{ title: string }> {
    const { page, subscriber } = await this.find(ref, token);
    subscriber.confirm(this.clock.now());
    await this.tx.run((tx) => this.subscribers.save(subscriber, tx));
    return { title: page.title };
  }

  async unsubscribe(ref: PublicPageRef, token: string): Promise<{ title: string }> {
    const { page, subscriber } = await this.find(ref, token);
    await this.tx.run((tx) => this.subscribers.remove(subscriber, tx));
    return { title: page.title };
  }

  private async find(ref: PublicPageRef, token: string) {
    const page = 'slug' in ref ? await this.pages.findBySlug(ref.slug) : await this.pages.findById(ref.pageId);
    if (!page) throw new AppError('statusPageNotFound');
    const subscriber = token ? await this.subscribers.findByToken(page.id, token) : null;
    if (!subscriber) throw new AppError('subscriberNotFound');
    return { page, subscriber };
  }
}
