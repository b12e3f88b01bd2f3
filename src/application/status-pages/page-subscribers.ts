import { AppError } from '../../domain/shared/app-error';
import { Subscriber } from '../../domain/status-pages/subscriber';
import type { StatusPage } from '../../domain/status-pages/status-page';
import type { DirectDeliveries } from '../notifications/ports';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import type { TargetPolicy } from '../shared/target-policy';
import { assertChannelUrl } from '../../domain/notifications/channel-url';
import type { ComponentCatalog, StatusPageRepository, SubscriberRepository } from './ports';
import { findPageInScope } from './page-lookup';
import { componentKeysOf } from './page-components';
import { confirmation, type SubscriberLinks } from './subscriber-messages';

export interface SubscriberView {
  readonly subscriber: Subscriber;
  /** Public ids of the components it follows (empty: the whole page). */
  readonly componentIds: readonly string[];
}

export type NewSubscriberInput =
  { channel: 'email'; email: string; componentIds: string[] } | { channel: 'webhook'; url: string; componentIds: string[] };

/** A subscriber id in a path: a positive integer (invalidSubscriberId otherwise). */
export function subscriberIdOf(ref: string): number {
  if (!/^[1-9]\d{0,9}$/.test(ref) || Number(ref) > 2_147_483_647) throw new AppError('invalidSubscriberId');
  return Number(ref);
}

/**
 * /api/status-pages/{id}/subscribers: the page's subscribers as its editors see them. An e-mail
 * added here is asked to confirm as a visitor would; a webhook is confirmed at once and answered
 * with the secret that signs its deliveries (shown this once).
 */
export class PageSubscribers {
  constructor(
    private readonly pages: StatusPageRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly catalog: ComponentCatalog,
    private readonly deliveries: DirectDeliveries,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly links: SubscriberLinks,
    private readonly clock: Clock,
    private readonly targets?: Pick<TargetPolicy, 'isAllowedAddress'>,
  ) {}

  async list(actor: Actor, input: { id: string }): Promise<SubscriberView[]> {
    const page = await findPageInScope(this.pages, actor.scope, input.id);
    return this.views(page, await this.subscribers.list(page.id));
  }

  async add(actor: Actor, input: { id: string; subscriber: NewSubscriberInput }): Promise<SubscriberView & { secret: string | null }> {
    requireAction(actor, 'statusPage.manageSubscribers');
    const page = await findPageInScope(this.pages, actor.scope, input.id);
    // A webhook is judged at creation by the rule notification channels follow (delivery judges it again).
    const url =
      input.subscriber.channel === 'webhook'
        ? assertChannelUrl('url', input.subscriber.url, this.targets && ((address) => this.targets!.isAllowedAddress(address)))
        : null;
    const componentKeys = await componentKeysOf(this.catalog, page, input.subscriber.componentIds);
    const now = this.clock.now();
    const token = `${this.ids.uuid()}${this.ids.uuid()}`.replace(/-/g, '');
    const fresh =
      input.subscriber.channel === 'email'
        ? Subscriber.email(
            { pageId: page.id, organizationId: page.organizationId, address: input.subscriber.email, componentKeys, token },
            now,
          )
        : Subscriber.webhook(
            {
              pageId: page.id,
              organizationId: page.organizationId,
              address: url!,
              componentKeys,
              token,
              secret: `whsec_${this.ids.uuid().replace(/-/g, '')}`,
            },
            now,
          );
    const { subscriber, created } = await this.tx.run(async (tx) => {
      const answer = await this.subscribers.add(fresh, tx);
      if (answer.created && answer.subscriber.channel === 'email')
        await this.deliveries.enqueue([confirmation(this.links, page, answer.subscriber)], now, tx);
      return answer;
    });
    return { ...(await this.views(page, [subscriber]))[0]!, secret: created ? subscriber.webhookSecret : null };
  }

  private async views(page: StatusPage, subscribers: readonly Subscriber[]): Promise<SubscriberView[]> {
    const existing = await this.catalog.existing(page.organizationId, page.components);
    return subscribers.map((subscriber) => ({
      subscriber,
      componentIds: subscriber.componentKeys.flatMap((key) => existing.get(key)?.publicId ?? []),
    }));
  }

  async remove(actor: Actor, input: { id: string; subscriberId: string }): Promise<Subscriber> {
    requireAction(actor, 'statusPage.manageSubscribers');
    const subscriberId = subscriberIdOf(input.subscriberId);
    const page = await findPageInScope(this.pages, actor.scope, input.id);
    const subscriber = await this.subscribers.findById(page.id, subscriberId);
    if (!subscriber) throw new AppError('subscriberNotFound');
    await this.tx.run((tx) => this.subscribers.remove(subscriber, tx));
    return subscriber;
  }
}
