import { AppError } from '../../domain/shared/app-error';
import {
  ACCOUNT_EMAIL_METHOD,
  assertContactAddress,
  changeContactMethod,
  type ContactMethod,
  type ContactMethodType,
} from '../../domain/incident-management/contact-method';
import { isOrgAdmin, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { SecretTokens } from '../identity/ports';
import type { TargetPolicy } from '../shared/target-policy';
import type { TransactionRunner } from '../shared/transaction';
import type { ContactMethodRepository, ImPeople, PagingContacts } from './ports';
import type { PushSubscriptionStore } from './push-ports';

export interface ContactMethodDeps {
  readonly methods: ContactMethodRepository;
  readonly people: ImPeople;
  readonly contacts: PagingContacts;
  /** The notification target policy: a webhook method must name a host the service may deliver to. */
  readonly policy: TargetPolicy;
  readonly ids: IdGenerator;
  readonly tokens: SecretTokens;
  readonly clock: Clock;
  /** A web-push method names one of its owner's subscribed devices. */
  readonly pushSubscriptions: Pick<PushSubscriptionStore, 'find'>;
  /** Opens the transaction a method's write runs in. */
  readonly transactions: TransactionRunner;
}

/**
 * Whose methods the caller names: their own by default; another user's only for organization (or
 * platform) admins (imContactMethodForbidden), and only a user of the organization (userNotFound).
 */
async function ownerOf(deps: ContactMethodDeps, actor: Actor, userId: string | undefined): Promise<string> {
  const owner = userId ?? actor.userId;
  // A credential acting for no user (none in practice today) has to name whose methods it means.
  if (owner === null) throw new AppError('validationFailed', { field: 'userId', reason: 'required' });
  if (owner !== actor.userId && !(isOrgAdmin(actor) || actor.isPlatformAdmin)) throw new AppError('imContactMethodForbidden');
  const named = await deps.people.named(actor.scope.organizationId, [owner]);
  if (!named.has(owner)) throw new AppError('userNotFound', { userIds: [owner] });
  return owner;
}

async function accountEmailOf(deps: ContactMethodDeps, organizationId: number, userId: string): Promise<string | null> {
  return (await deps.contacts.contacts(organizationId, [userId])).get(userId)?.email ?? null;
}

async function vetAddress(
  deps: ContactMethodDeps,
  type: ContactMethodType,
  address: string,
  owner: ContactMethod['userId'],
  organizationId: number,
): Promise<void> {
  assertContactAddress(type, address);
  if (type === 'web-push') {
    const device = await deps.pushSubscriptions.find(organizationId, address);
    if (device?.userId !== owner) throw new AppError('validationFailed', { field: 'address', reason: 'notAPushSubscriptionOfTheUser' });
    return;
  }
  if (type !== 'webhook') return;
  const vetting = await deps.policy.vet(new URL(address).hostname);
  if (!vetting.ok) throw new AppError('imContactMethodTargetRefused', { reason: vetting.reason });
}

/** The method with this id of the caller's organization, which the caller may manage (imContactMethodNotFound otherwise). */
async function loadMethod(deps: ContactMethodDeps, actor: Actor, id: string, userId: string | undefined): Promise<ContactMethod> {
  const organizationId = actor.scope.organizationId;
  if (id === ACCOUNT_EMAIL_METHOD) {
    const owner = await ownerOf(deps, actor, userId);
    const stored = (await deps.methods.list(organizationId, owner)).find((m) => m.id === ACCOUNT_EMAIL_METHOD);
    const now = deps.clock.now();
    const email = (await accountEmailOf(deps, organizationId, owner)) ?? '';
    return stored
      ? { ...stored, address: email }
      : {
          id: ACCOUNT_EMAIL_METHOD,
          organizationId,
          userId: owner,
          type: 'email',
          address: email,
          enabled: true,
          secret: null,
          createdAt: now,
          updatedAt: now,
        };
  }
  const method = await deps.methods.find(organizationId, id);
  if (!method) throw new AppError('imContactMethodNotFound');
  await ownerOf(deps, actor, method.userId);
  return method;
}

/** A user's contact methods, the account e-mail first (on unless switched off). */
export class ListContactMethods {
  constructor(private readonly deps: ContactMethodDeps) {}

  async execute(actor: Actor, userId?: string): Promise<ContactMethod[]> {
    const owner = await ownerOf(this.deps, actor, userId);
    const account = await loadMethod(this.deps, actor, ACCOUNT_EMAIL_METHOD, owner);
    const others = (await this.deps.methods.list(actor.scope.organizationId, owner)).filter((m) => m.id !== ACCOUNT_EMAIL_METHOD);
    return [account, ...others];
  }
}

export interface AddContactMethodInput {
  userId?: string;
  type: ContactMethodType;
  address: string;
  enabled?: boolean;
}

/**
 * Adds an e-mail address, an E.164 number or a webhook URL (vetted by the target policy) to a
 * user's methods. A webhook gets a new `whsec_` signing secret, which the caller shows once.
 */
export class AddContactMethod {
  constructor(private readonly deps: ContactMethodDeps) {}

  async execute(actor: Actor, input: AddContactMethodInput): Promise<ContactMethod> {
    const owner = await ownerOf(this.deps, actor, input.userId);
    await vetAddress(this.deps, input.type, input.address, owner, actor.scope.organizationId);
    const now = this.deps.clock.now();
    const method: ContactMethod = {
      id: this.deps.ids.uuid(),
      organizationId: actor.scope.organizationId,
      userId: owner,
      type: input.type,
      address: input.address,
      enabled: input.enabled ?? true,
      secret: input.type === 'webhook' ? this.deps.tokens.generate('whsec_') : null,
      createdAt: now,
      updatedAt: now,
    };
    await this.deps.transactions.run((tx) => this.deps.methods.put(method, tx));
    return method;
  }
}

export interface UpdateContactMethodInput {
  enabled?: boolean;
  address?: string;
}

/** Switches a method on or off, or changes its address; the account e-mail can only be switched (its address is the account's). */
export class UpdateContactMethod {
  constructor(private readonly deps: ContactMethodDeps) {}

  async execute(actor: Actor, id: string, change: UpdateContactMethodInput, userId?: string): Promise<ContactMethod> {
    const method = await loadMethod(this.deps, actor, id, userId);
    const changed = changeContactMethod(method, change, this.deps.clock.now());
    if (change.address !== undefined) await vetAddress(this.deps, method.type, change.address, method.userId, method.organizationId);
    await this.deps.transactions.run((tx) => this.deps.methods.put(changed, tx));
    return changed;
  }
}

/** Removes a method; removing the account e-mail's setting switches it back on (the default). */
export class RemoveContactMethod {
  constructor(private readonly deps: ContactMethodDeps) {}

  async execute(actor: Actor, id: string, userId?: string): Promise<void> {
    const method = await loadMethod(this.deps, actor, id, userId);
    await this.deps.transactions.run((tx) => this.deps.methods.remove(actor.scope.organizationId, method.userId, method.id, tx));
  }
}
