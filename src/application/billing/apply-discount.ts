import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import {
  assertCodeImproves,
  assertDiscountPercent,
  isWellFormedDiscountCode,
  normalizeDiscountCode,
  type Discount,
} from '../../domain/billing/discount';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import { requireBillingAdmin } from './billing-access';
import type { BillingAccounts, DiscountCodes } from './ports';

export type DiscountRequest = { readonly code: string } | { readonly percent: number; readonly organizationId?: number };

/**
 * POST /api/billing/discount: a discount on the organization's future charges. Administrators
 * redeem a code (invalidDiscountCode when unknown or malformed; invalidDiscount when it would lower
 * the discount the organization has); only platform administrators grant a bare percentage
 * (0 clears it), to their own or any organization (organizationId; organizationNotFound when there
 * is none), since an organization setting its own price is no discount.
 */
export class ApplyDiscount {
  constructor(
    private readonly accounts: BillingAccounts,
    private readonly codes: DiscountCodes,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, request: DiscountRequest): Promise<Discount | null> {
    requireBillingAdmin(actor);
    if ('percent' in request) {
      if (!actor.isPlatformAdmin) throw new AppError('roleForbidden', { reason: 'percentNeedsPlatformAdmin' });
      assertDiscountPercent(request.percent);
      const organizationId = request.organizationId ?? actor.scope.organizationId;
      if (!(await this.accounts.exists(organizationId))) throw new AppError('organizationNotFound');
      const now = this.clock.now();
      const discount = request.percent === 0 ? null : { percent: request.percent, code: null, appliedAt: now };
      await this.tx.run((tx) => this.accounts.setDiscount(organizationId, discount, now, tx));
      return discount;
    }
    const organizationId = actor.scope.organizationId;
    const code = normalizeDiscountCode(request.code);
    const percent = isWellFormedDiscountCode(code) ? await this.codes.percentOf(code) : null;
    if (percent === null) throw new AppError('invalidDiscountCode');
    const account = await this.accounts.get(organizationId);
    if (account.discount?.code === code) return account.discount;
    assertCodeImproves(account.discount, percent);
    const discount = { percent, code, appliedAt: this.clock.now() };
    await this.tx.run((tx) => this.accounts.setDiscount(organizationId, discount, discount.appliedAt, tx));
    return discount;
  }
}
