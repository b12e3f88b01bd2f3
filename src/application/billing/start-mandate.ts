import type { TransactionRunner } from '../shared/transaction';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import { requireBillingAdmin } from './billing-access';
import type { BillingAccounts, PaymentProvider } from './ports';

/**
 * POST /api/billing/mandate: starts a mandate with the payment provider and answers where to send
 * the browser; the provider sends it back to /api/billing/mandate/return.
 */
export class StartMandate {
  constructor(
    private readonly provider: PaymentProvider,
    private readonly accounts: BillingAccounts,
    private readonly clock: Clock,
    private readonly returnUrl: string,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor): Promise<{ mandateId: string; redirectUrl: string }> {
    requireBillingAdmin(actor);
    // The mandate and the account's reference to it commit together.
    return this.tx.run(async (tx) => {
      const started = await this.provider.startMandate(actor.scope.organizationId, this.returnUrl, tx);
      await this.accounts.setMandate(actor.scope.organizationId, started.mandateId, 'pending', this.clock.now(), tx);
      return started;
    });
  }
}
