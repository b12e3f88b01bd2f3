import { AppError } from '../shared/app-error';

/**
 * How a person is paged, as PagerDuty's and Opsgenie's contact methods: every user has their account
 * e-mail (on by default, can be switched off), and may add e-mail addresses, SMS numbers, webhooks and
 * devices subscribed to Web Push in the console (`web-push`, its address the subscription's id).
 * A page goes to every enabled method of the person paged.
 */
export const CONTACT_METHOD_TYPES = ['email', 'sms', 'webhook', 'web-push'] as const;
export type ContactMethodType = (typeof CONTACT_METHOD_TYPES)[number];

/** The id under which the account e-mail appears among a user's methods. */
export const ACCOUNT_EMAIL_METHOD = 'account-email';

/** E.164: a plus, a country code that does not start with 0, at most 15 digits in all. */
export const E164 = /^\+[1-9]\d{6,14}$/;

export interface ContactMethod {
  /** A uuid, or ACCOUNT_EMAIL_METHOD for the account e-mail. */
  readonly id: string;
  readonly organizationId: number;
  readonly userId: string;
  readonly type: ContactMethodType;
  /**
   * E-mail address, E.164 number, https/http URL or (web-push) the id of one of the user's push
   * subscriptions; for the account e-mail, the account's address.
   */
  readonly address: string;
  readonly enabled: boolean;
  /** A webhook's signing secret (pages carry X-Webhook-Signature); null for other types. */
  readonly secret: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * A method switched on or off, or given a new address (checked against its type); the account
 * e-mail's address is the account's and cannot be changed here (validationFailed).
 */
export function changeContactMethod(method: ContactMethod, change: { enabled?: boolean; address?: string }, now: Date): ContactMethod {
  if (change.address !== undefined) {
    if (method.id === ACCOUNT_EMAIL_METHOD)
      throw new AppError('validationFailed', { field: 'address', reason: 'accountEmailIsTheAccounts' });
    assertContactAddress(method.type, change.address);
  }
  return { ...method, address: change.address ?? method.address, enabled: change.enabled ?? method.enabled, updatedAt: now };
}

/** Throws validationFailed (field address) unless the address fits the method's type. */
export function assertContactAddress(type: ContactMethodType, address: string): void {
  const rule = ADDRESS_RULES[type];
  if (!rule.fits(address)) throw new AppError('validationFailed', { field: 'address', reason: rule.reason });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What each type's address is, and the reason a refusal names: one line per contact method type. */
const ADDRESS_RULES: Readonly<Record<ContactMethodType, { fits(address: string): boolean; reason: string }>> = {
  sms: { fits: (address) => E164.test(address), reason: 'notE164' },
  email: { fits: (address) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address) && address.length <= 254, reason: 'notAnEmail' },
  webhook: { fits: (address) => webhookUrlOk(address), reason: 'notAUrl' },
  'web-push': { fits: (address) => UUID.test(address), reason: 'notAPushSubscriptionId' },
};

function webhookUrlOk(address: string): boolean {
  if (address.length > 2048) return false;
  try {
    const url = new URL(address);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** Where one page to a person goes: each enabled method once (by its id, which the page's dedup key carries). */
export interface PageRoute {
  readonly methodId: string;
  readonly recipient:
    | { readonly type: 'email'; readonly address: string }
    | { readonly type: 'sms'; readonly phone: string }
    | { readonly type: 'webhook'; readonly url: string; readonly secret: string | null }
    | { readonly type: 'web-push'; readonly subscriptionId: string };
}

/**
 * The fan-out of one page: the account e-mail unless its user switched it off, then every other
 * enabled method; one route per distinct destination (an added e-mail equal to the account address
 * is not paged twice). Someone with every method off still gets the account e-mail: a page that
 * reaches nobody would stall the escalation silently.
 */
export function pageRoutes(accountEmail: string, methods: readonly ContactMethod[]): PageRoute[] {
  const account = methods.find((m) => m.id === ACCOUNT_EMAIL_METHOD);
  const routes: PageRoute[] = [];
  const seen = new Set<string>();
  const add = (route: PageRoute) => {
    const key = `${route.recipient.type}:${destinationOf(route.recipient)}`;
    if (seen.has(key)) return;
    seen.add(key);
    routes.push(route);
  };
  if (account?.enabled ?? true) add({ methodId: ACCOUNT_EMAIL_METHOD, recipient: { type: 'email', address: accountEmail } });
  for (const method of methods) {
    if (method.id === ACCOUNT_EMAIL_METHOD || !method.enabled) continue;
    if (method.type === 'email') add({ methodId: method.id, recipient: { type: 'email', address: method.address } });
    else if (method.type === 'sms') add({ methodId: method.id, recipient: { type: 'sms', phone: method.address } });
    else if (method.type === 'web-push') add({ methodId: method.id, recipient: { type: 'web-push', subscriptionId: method.address } });
    else add({ methodId: method.id, recipient: { type: 'webhook', url: method.address, secret: method.secret } });
  }
  if (routes.length === 0) routes.push({ methodId: ACCOUNT_EMAIL_METHOD, recipient: { type: 'email', address: accountEmail } });
  return routes;
}

/** Where a route's recipient is, for telling two routes to one destination apart. */
function destinationOf(recipient: PageRoute['recipient']): string {
  switch (recipient.type) {
    case 'email':
      return recipient.address.toLowerCase();
    case 'sms':
      return recipient.phone;
    case 'webhook':
      return recipient.url;
    case 'web-push':
      return recipient.subscriptionId;
  }
}
