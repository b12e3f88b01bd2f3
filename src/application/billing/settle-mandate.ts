import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { MandateStatus } from '../../domain/billing/mandate';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import { requireBillingAdmin } from './billing-access';
import type { BillingAccounts, PaymentProvider } from './ports';

export interface MandateState {
  readonly mandateId: string;
  readonly status: MandateStatus;
  /** Whether the organization's record changed. */
  readonly changed: boolean;
}

/**
 * The two ways the organization's record learns a mandate's state, both reading it from the
 * provider (never from the browser's query string, which anyone can edit):
 * - return: the browser lands back from the provider's page with the mandate it set up;
 * - reconcile: re-reads the organization's current mandate, e.g. after a return that never came
 *   or a revocation at the provider. Idempotent: a second call changes nothing.
 * A mandate the provider does not know, or one of another organization, answers mandateNotFound.
 */
export class SettleMandate {
  constructor(
    private readonly provider: PaymentProvider,
    private readonly accounts: BillingAccounts,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    /** The operator's page a browser goes to after a return (BILLING_RETURN_PAGE_URL); null: none. */
    private readonly returnPageUrl: string | null = null,
  ) {}

  /** Where to send a browser after a return, with the outcome in ?mandateStatus=; null when no page is configured. */
  returnPage(state: MandateState): string | null {
    if (!this.returnPageUrl) return null;
    const page = new URL(this.returnPageUrl);
    page.searchParams.set('mandateStatus', state.status);
    return page.toString();
  }

  async afterReturn(actor: Actor, mandateId: string): Promise<MandateState> {
    requireBillingAdmin(actor);
    return this.settle(actor.scope.organizationId, mandateId);
  }

  async reconcile(actor: Actor): Promise<MandateState> {
    requireBillingAdmin(actor);
    const account = await this.accounts.get(actor.scope.organizationId);
    if (!account.mandateId) throw new AppError('mandateNotFound');
    return this.settle(actor.scope.organizationId, account.mandateId);
  }

  private async settle(organizationId: number, mandateId: string): Promise<MandateState> {
    const known = await this.provider.mandateStatus(mandateId);
    if (!known || known.organizationId !== organizationId) throw new AppError('mandateNotFound');
    const account = await this.accounts.get(organizationId);
    const changed = account.mandateId !== mandateId || account.mandateStatus !== known.status;
    if (changed) await this.tx.run((tx) => this.accounts.setMandate(organizationId, mandateId, known.status, this.clock.now(), tx));
    return { mandateId, status: known.status, changed };
  }
}
