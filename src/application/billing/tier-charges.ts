import { discounted } from '../../domain/billing/discount';
import { BILLING_CURRENCY } from '../../domain/billing/money';
import type { Transaction } from '../shared/transaction';
import type { BillingAccounts, Charge, PaymentProvider } from './ports';

export interface TierChargeInput {
  readonly organizationId: number;
  readonly customerPublicId: string;
  readonly fromTierIndex: number;
  readonly toTierIndex: number;
  /** The customer row's version after the move: one move, one key. */
  readonly version: number;
  readonly chargeCents: number;
  readonly automatic: boolean;
}

/**
 * Records what a move to a dearer quota tier costs (after the organization's discount), keyed on
 * the move itself, so a retried transaction or a second worker never charges it twice. Runs in the
 * transaction of the move: no move without its charge, no charge without its move.
 */
export class TierCharges {
  constructor(
    private readonly provider: PaymentProvider,
    private readonly accounts: BillingAccounts,
  ) {}

  async record(input: TierChargeInput, tx: Transaction): Promise<Charge | null> {
    if (input.chargeCents <= 0) return null;
    const account = await this.accounts.getIn(input.organizationId, tx);
    const amountCents = discounted(input.chargeCents, account.discount);
    const how = input.automatic ? 'automatic quota upgrade' : 'quota tier change';
    const off = account.discount ? `, ${account.discount.percent}% off` : '';
    return this.provider.charge(
      input.organizationId,
      {
        amountCents,
        currency: BILLING_CURRENCY,
        description: `Customer ${input.customerPublicId}: ${how} from tier ${input.fromTierIndex} to tier ${input.toTierIndex} (monthly difference${off})`,
        idempotencyKey: `quota-tier:${input.customerPublicId}:${input.fromTierIndex}-${input.toTierIndex}:v${input.version}`,
      },
      tx,
    );
  }
}
