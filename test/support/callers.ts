import { api } from './http-client';
import { anOrganization, type SignedUp } from './builders';
import { aCustomerToken, aMember, anOrgToken } from './identity-fixtures';

export interface CustomerRef {
  id: number;
  publicId: string;
}

/**
 * One organization with a caller of every class, two customers, and an admin of another
 * organization. Bearer tokens throughout; customer-scoped callers are bound to `customer`.
 */
export interface CallerSet {
  org: SignedUp;
  organizationId: number;
  customer: CustomerRef;
  otherCustomer: CustomerRef;
  admin: string;
  editor: string;
  readonly: string;
  responder: string;
  /** Organization-wide wsm_ token minted by the admin (acts as admin). */
  orgToken: string;
  /** Customer-scoped wsm_ token for `customer`, minted by the admin. */
  customerToken: string;
  /** Session of an editor bound to `customer`. */
  customerUser: string;
  /** Session of a read-only user bound to `customer`. */
  customerReadonly: string;
  /** Admin session of another organization. */
  stranger: string;
}

/** A customer created through the API as `token`. */
export async function aCustomer(token: string, body: Record<string, unknown> = {}): Promise<CustomerRef & Record<string, any>> {
  const response = await api('POST', '/api/customers', {
    token,
    body: { name: `Customer ${Math.random().toString(36).slice(2, 8)}`, email: 'ops@customer.test', ...body },
  });
  if (response.status !== 200) throw new Error(`customer create failed: ${JSON.stringify(response.body)}`);
  return response.body.customer;
}

export async function aCallerSet(): Promise<CallerSet> {
  const org = await anOrganization('callers');
  const customer = await aCustomer(org.token, { name: 'Bound Customer' });
  const otherCustomer = await aCustomer(org.token, { name: 'Other Customer' });
  const [editor, readonly, responder, customerUser, customerReadonly] = await Promise.all([
    aMember(org, 'editor'),
    aMember(org, 'readonly'),
    aMember(org, 'responder'),
    aMember(org, 'editor', customer.id),
    aMember(org, 'readonly', customer.id),
  ]);
  const [orgToken, customerToken, stranger] = await Promise.all([
    anOrgToken(org.token),
    aCustomerToken(org.token, customer.id),
    anOrganization('stranger'),
  ]);
  return {
    org,
    organizationId: org.user.organizationId,
    customer: { id: customer.id, publicId: customer.publicId },
    otherCustomer: { id: otherCustomer.id, publicId: otherCustomer.publicId },
    admin: org.token,
    editor: editor.token,
    readonly: readonly.token,
    responder: responder.token,
    orgToken,
    customerToken,
    customerUser: customerUser.token,
    customerReadonly: customerReadonly.token,
    stranger: stranger.token,
  };
}
