import { AppError } from '../shared/app-error';

export const SUBSCRIBER_CHANNELS = ['email', 'webhook'] as const;
export type SubscriberChannel = (typeof SUBSCRIBER_CHANNELS)[number];

export interface SubscriberProps {
  id: number;
  pageId: number;
  organizationId: number;
  channel: SubscriberChannel;
  /** The e-mail address, or the webhook URL. */
  address: string;
  /** Signs webhook bodies (X-Webhook-Signature); null for e-mail. */
  webhookSecret: string | null;
  /** Component keys (`type:id`) the subscriber follows; empty = the whole page. */
  componentKeys: string[];
  /** E-mail subscribers are confirmed by the link sent to them (double opt-in); webhooks added by the page's editors are confirmed. */
  confirmed: boolean;
  /** Random secret of the subscriber's confirmation and unsubscribe links. */
  token: string;
  createdAt: Date;
  confirmedAt: Date | null;
}

/** Someone told of a page's incidents, updates and announced maintenance. */
export class Subscriber implements SubscriberProps {
  id!: number;
  pageId!: number;
  organizationId!: number;
  channel!: SubscriberChannel;
  address!: string;
  webhookSecret!: string | null;
  componentKeys!: string[];
  confirmed!: boolean;
  token!: string;
  createdAt!: Date;
  confirmedAt!: Date | null;
  /** The optimistic version of the row: a save names the one it read. */
  version = 1;

  constructor(props: SubscriberProps) {
    Object.assign(this, props);
  }

  static email(
    props: { pageId: number; organizationId: number; address: string; componentKeys: string[]; token: string },
    now: Date,
  ): Subscriber {
    if (!/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(props.address))
      throw new AppError('validationFailed', { field: 'email' }, 'Not an e-mail address');
    return new Subscriber({
      ...props,
      address: props.address.toLowerCase(),
      id: 0,
      channel: 'email',
      webhookSecret: null,
      confirmed: false,
      createdAt: now,
      confirmedAt: null,
    });
  }

  static webhook(
    props: { pageId: number; organizationId: number; address: string; secret: string; componentKeys: string[]; token: string },
    now: Date,
  ): Subscriber {
    return new Subscriber({
      pageId: props.pageId,
      organizationId: props.organizationId,
      address: props.address,
      componentKeys: props.componentKeys,
      token: props.token,
      id: 0,
      channel: 'webhook',
      webhookSecret: props.secret,
      confirmed: true,
      createdAt: now,
      confirmedAt: now,
    });
  }

  /** Idempotent: a second click on the link changes nothing. */
  confirm(now: Date): void {
    if (this.confirmed) return;
    this.confirmed = true;
    this.confirmedAt = now;
  }

  /** Whether news about these components reaches it: page-wide news (no components) reaches everyone. */
  follows(componentKeys: readonly string[]): boolean {
    if (!this.confirmed) return false;
    if (this.componentKeys.length === 0 || componentKeys.length === 0) return true;
    return componentKeys.some((key) => this.componentKeys.includes(key));
  }
}
