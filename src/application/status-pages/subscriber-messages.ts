import type { StatusPage } from '../../domain/status-pages/status-page';
import type { Subscriber } from '../../domain/status-pages/subscriber';
import type { DirectMessage } from '../notifications/ports';

/** Where the pages answer (PUBLIC_BASE_URL): the links in messages. */
export interface SubscriberLinks {
  readonly publicBaseUrl: string;
}

/**
 * The page's address in messages: the root of its active custom domain (over HTTPS, which the
 * operator's proxy terminates), else /status/{slug} on the platform's host.
 */
export const pageUrl = (links: SubscriberLinks, page: StatusPage) =>
  page.customDomain ? `https://${page.customDomain}` : `${links.publicBaseUrl}/status/${page.slug}`;
export const unsubscribeUrl = (links: SubscriberLinks, page: StatusPage, subscriber: Subscriber) =>
  `${pageUrl(links, page)}/unsubscribe?token=${encodeURIComponent(subscriber.token)}`;

/** What a message says, before it is addressed. */
export interface News {
  readonly event: string;
  readonly subject: string;
  readonly text: string;
  readonly data: Readonly<Record<string, unknown>>;
  readonly incidentId?: string | null;
}

/**
 * Addresses news to a subscriber: e-mails carry the page link and a one-click unsubscribe link
 * (List-Unsubscribe with List-Unsubscribe-Post, RFC 8058); webhooks get the news as JSON data.
 * `dedupKey` makes a repeated enqueue of the same news to the same subscriber a no-op.
 */
export function addressed(links: SubscriberLinks, page: StatusPage, subscriber: Subscriber, news: News, dedupKey: string): DirectMessage {
  const base = {
    organizationId: page.organizationId,
    customerId: page.customerId,
    event: news.event,
    subject: news.subject,
    dedupKey: `${dedupKey}:subscriber:${subscriber.id}`,
    incidentId: news.incidentId ?? null,
  };
  if (subscriber.channel === 'webhook') {
    return {
      ...base,
      recipient: { type: 'webhook', url: subscriber.address, secret: subscriber.webhookSecret },
      text: news.text,
      data: { statusPage: { id: page.publicId, title: page.title, url: pageUrl(links, page) }, ...news.data },
    };
  }
  const unsubscribe = unsubscribeUrl(links, page, subscriber);
  return {
    ...base,
    recipient: { type: 'email', address: subscriber.address },
    text: `${news.text}\n\nCurrent status: ${pageUrl(links, page)}\n\nUnsubscribe: ${unsubscribe}\n`,
    headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

/** The double opt-in: the link that confirms an e-mail subscription. */
export function confirmation(links: SubscriberLinks, page: StatusPage, subscriber: Subscriber): DirectMessage {
  const confirm = `${pageUrl(links, page)}/confirm?token=${encodeURIComponent(subscriber.token)}`;
  return {
    organizationId: page.organizationId,
    customerId: page.customerId,
    recipient: { type: 'email', address: subscriber.address },
    event: 'statusPage.subscriptionConfirmation',
    subject: `Confirm your subscription to ${page.title}`,
    text:
      `Someone (hopefully you) asked to be told of incidents and maintenance on ${page.title}.\n\n` +
      `Confirm: ${confirm}\n\nIf it was not you, ignore this message: nothing will be sent without confirmation.\n`,
    dedupKey: `statusPage:${page.id}:confirm:${subscriber.id}`,
  };
}

/**
 * To an address that subscribes again once confirmed: it is already subscribed, with the link to
 * stop. The subscribe answer is the same whatever the address's state, so only the mailbox's owner
 * learns it; one such message an hour at most (the dedup key carries the hour).
 */
export function alreadySubscribed(links: SubscriberLinks, page: StatusPage, subscriber: Subscriber, now: Date): DirectMessage {
  const hour = Math.floor(now.getTime() / 3_600_000);
  return {
    organizationId: page.organizationId,
    customerId: page.customerId,
    recipient: { type: 'email', address: subscriber.address },
    event: 'statusPage.alreadySubscribed',
    subject: `You are subscribed to ${page.title}`,
    text:
      `Someone (hopefully you) asked again to be told of incidents and maintenance on ${page.title}. ` +
      `This address is already subscribed: nothing changes.\n\nTo stop receiving updates: ${unsubscribeUrl(links, page, subscriber)}\n`,
    dedupKey: `statusPage:${page.id}:already:${subscriber.id}:${hour}`,
  };
}
