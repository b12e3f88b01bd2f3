import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import { organizationScope } from '../../domain/shared/tenant-scope';
import { ApiToken, API_TOKEN_PREFIX } from '../../domain/identity/api-token';
import { isStepUpFresh } from '../../domain/identity/step-up';
import { isCustomerBound, isOrgAdmin, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { ApiTokenRepository, CustomerDirectory, SecretTokens } from './ports';

export interface MintedToken {
  readonly record: ApiToken;
  /** The secret, shown once. */
  readonly token: string;
}

type Family = 'organization' | 'customer';

/**
 * /api/organization/tokens and /api/customer/tokens. Only a signed-in user mints tokens; every
 * mutation by a caller with two-step verification on needs a code verified in the last 5 minutes.
 */
export class ApiTokens {
  constructor(
    private readonly tokens: ApiTokenRepository,
    private readonly customers: CustomerDirectory,
    private readonly secrets: SecretTokens,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
  ) {}

  async mint(
    actor: Actor,
    family: Family,
    input: { name: string; expiresInDays?: number | null; customerId?: number | null },
  ): Promise<MintedToken> {
    if (actor.kind !== 'session' || !actor.userId) throw new AppError('apiTokenCannotMintTokens');
    this.assertSteppedUp(actor);
    const customerId = family === 'customer' ? await this.customerFor(actor, input.customerId ?? null) : null;
    const token = this.secrets.generate(API_TOKEN_PREFIX);
    const record = new ApiToken({
      id: this.ids.uuid(),
      organizationId: actor.scope.organizationId,
      customerId,
      createdByUserId: actor.userId,
      name: input.name,
      tokenHash: this.secrets.hash(token),
      tokenPrefix: token.slice(0, API_TOKEN_PREFIX.length + 6),
      expiresInDays: input.expiresInDays ?? null,
      now: this.clock.now(),
    });
    await this.transactions.run((tx) => this.tokens.add(record, tx));
    return { record, token };
  }

  /** Administrators see every token of the family; others see the tokens they minted. */
  async list(actor: Actor, family: Family): Promise<ApiToken[]> {
    const all = await this.tokens.list(actor.scope, family === 'customer');
    return isOrgAdmin(actor) || (isCustomerBound(actor) && actor.role === 'admin')
      ? all
      : all.filter((t) => t.createdByUserId === actor.userId);
  }

  async rename(actor: Actor, family: Family, id: string, name: string): Promise<ApiToken> {
    const token = await this.mutable(actor, family, id);
    token.rename(name, this.clock.now());
    await this.transactions.run((tx) => this.tokens.save(token, tx));
    return token;
  }

  async revoke(actor: Actor, family: Family, id: string): Promise<void> {
    const token = await this.mutable(actor, family, id);
    token.revoke(this.clock.now());
    await this.transactions.run((tx) => this.tokens.save(token, tx));
  }

  private async mutable(actor: Actor, family: Family, id: string): Promise<ApiToken> {
    this.assertSteppedUp(actor);
    const token = await this.tokens.findById(actor.scope, id);
    const inFamily = token && token.revokedAt === null && (family === 'customer') === (token.customerId !== null);
    const mayTouch = inFamily && (isOrgAdmin(actor) || token.createdByUserId === actor.userId);
    if (!mayTouch) throw new AppError('apiTokenNotFound');
    return token;
  }

  private assertSteppedUp(actor: Actor): void {
    if (actor.mfaEnabled && !isStepUpFresh(actor.stepUpVerifiedAt, this.clock.now())) {
      throw new AppError('mfa_step_up_required');
    }
  }

  /** Customer-bound users mint for their own customer; organization users name one of theirs. */
  private async customerFor(actor: Actor, requested: number | null): Promise<number> {
    const bound = actor.scope.customerId;
    if (bound !== null) {
      if (requested !== null && requested !== bound) throw new AppError('customerNotFound');
      return bound;
    }
    if (requested === null) throw new AppError('invalidCustomer', {}, 'customerId is required for a customer token');
    if (!(await this.customers.exists(organizationScope(actor.scope.organizationId), requested))) {
      throw new AppError('customerNotFound');
    }
    return requested;
  }
}
