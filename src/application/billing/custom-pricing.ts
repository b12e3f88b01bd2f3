import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import { customPriceOf } from '../../domain/billing/custom-price';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import { requireBillingAdmin } from './billing-access';
import type { CustomPriceRow, CustomPricingStore } from './ports';

/**
 * /api/custom-pricing: each customer's own monthly price set by the organization, overriding its
 * package tier's price in what the organization shows and bills its customer. Administrators of
 * the organization; customer-scoped tokens are turned away by the gate before this.
 * A customer outside the organization answers customerNotFound.
 */
export class CustomPricing {
  constructor(
    private readonly store: CustomPricingStore,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async list(actor: Actor): Promise<CustomPriceRow[]> {
    requireBillingAdmin(actor);
    return this.store.list(actor.scope);
  }

  async set(
    actor: Actor,
    customer: string,
    price: { priceMonthly: number; currency: string; note?: string | null } | null,
  ): Promise<CustomPriceRow> {
    requireBillingAdmin(actor);
    const row = await this.tx.run((tx) =>
      this.store.set(actor.scope, customer, price === null ? null : customPriceOf(price), this.clock.now(), tx),
    );
    if (!row) throw new AppError('customerNotFound');
    return row;
  }
}
