import { ApplyDiscount } from '../../../src/application/billing/apply-discount';
import { ChangeQuotaTier } from '../../../src/application/billing/change-quota-tier';
import { SettleMandate } from '../../../src/application/billing/settle-mandate';
import { StartMandate } from '../../../src/application/billing/start-mandate';
import { TierCharges } from '../../../src/application/billing/tier-charges';
import type { TransactionRunner } from '../../../src/application/shared/transaction';
import { ManualClock } from '../manual-clock';
import { immediateTransactions } from '../fakes/shared-fakes';
import { FakeBillingAccounts, FakeDiscountCodes, FakePaymentProvider, FakeQuotaTierStore } from '../fakes/billing-fakes';

/** Where the payment provider sends the customer back after a mandate. */
export const MANDATE_RETURN_URL = 'https://api.example/api/billing/mandate/return';

export interface BillingWorldOptions {
  /** The runner the use cases open their transactions with (one that runs at once). */
  readonly tx?: TransactionRunner;
}

/**
 * The billing context on its fakes, wired as the composition root wires it: the quota tiers (add
 * customers with `tiers.add()`), the billing accounts, the payment provider, the discount codes
 * (WELCOME10, PARTNER25), and the use cases over them, on a clock at its default start.
 */
export function aBillingWorld(options: BillingWorldOptions = {}) {
  const clock = new ManualClock();
  const tx = options.tx ?? immediateTransactions;
  const tiers = new FakeQuotaTierStore();
  const accounts = new FakeBillingAccounts();
  const provider = new FakePaymentProvider();
  const codes = new FakeDiscountCodes();
  return {
    clock,
    tx,
    tiers,
    accounts,
    provider,
    codes,
    changeTier: new ChangeQuotaTier(tiers, accounts, new TierCharges(provider, accounts), tx, clock),
    start: new StartMandate(provider, accounts, clock, MANDATE_RETURN_URL, tx),
    settle: new SettleMandate(provider, accounts, clock, tx),
    discount: new ApplyDiscount(accounts, codes, clock, tx),
  };
}

export type BillingWorld = ReturnType<typeof aBillingWorld>;
