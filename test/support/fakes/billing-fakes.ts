import type { Transaction } from '../../../src/application/shared/transaction';
import type { Joined } from './monitoring-fakes';
import type {
  BillingAccount,
  BillingAccounts,
  Charge,
  ChargeRequest,
  CustomerTier,
  DiscountCodes,
  PaymentProvider,
  QuotaTierStore,
} from '../../../src/application/billing/ports';
import type { Discount } from '../../../src/domain/billing/discount';
import type { MandateStatus } from '../../../src/domain/billing/mandate';
import type { TenantScope } from '../../../src/domain/shared/tenant-scope';
import { CLOCK_START } from '../manual-clock';

/** The payment provider in memory: mandates by id, charges idempotent on their key, as the real adapter. */
export class FakePaymentProvider implements PaymentProvider {
  readonly joined: Joined = [];
  readonly mandates = new Map<string, { organizationId: number; status: MandateStatus }>();
  readonly charges: Charge[] = [];
  private next = 1;

  async startMandate(organizationId: number, returnUrl: string, tx?: Transaction) {
    this.joined.push(['startMandate', tx]);
    const mandateId = `mandate-${this.next++}`;
    this.mandates.set(mandateId, { organizationId, status: 'active' });
    return { mandateId, redirectUrl: `${returnUrl}?mandateId=${mandateId}` };
  }

  async mandateStatus(mandateId: string) {
    const mandate = this.mandates.get(mandateId);
    return mandate ? { ...mandate } : null;
  }

  async charge(organizationId: number, request: ChargeRequest, tx?: Transaction): Promise<Charge> {
    this.joined.push(['charge', tx]);
    const existing = this.charges.find((c) => c.idempotencyKey === request.idempotencyKey);
    if (existing) return existing;
    const charge = { ...request, id: `charge-${this.next++}`, organizationId, createdAt: CLOCK_START };
    this.charges.push(charge);
    return charge;
  }
}

export class FakeBillingAccounts implements BillingAccounts {
  readonly joined: Joined = [];
  readonly accounts = new Map<number, BillingAccount>();
  readonly organizations = new Set<number>([1]);

  async exists(organizationId: number): Promise<boolean> {
    return this.organizations.has(organizationId);
  }

  async get(organizationId: number): Promise<BillingAccount> {
    return (
      this.accounts.get(organizationId) ?? { organizationId, mandateId: null, mandateStatus: null, discount: null, autoQuotaUpgrade: false }
    );
  }

  async getIn(organizationId: number, _tx: Transaction): Promise<BillingAccount> {
    return this.get(organizationId);
  }

  async setMandate(organizationId: number, mandateId: string, mandateStatus: MandateStatus, _at?: Date, tx?: Transaction): Promise<void> {
    this.joined.push(['setMandate', tx]);
    this.accounts.set(organizationId, { ...(await this.get(organizationId)), mandateId, mandateStatus });
  }

  async setDiscount(organizationId: number, discount: Discount | null, _at: Date, tx?: Transaction): Promise<void> {
    this.joined.push(['setDiscount', tx]);
    this.accounts.set(organizationId, { ...(await this.get(organizationId)), discount });
  }

  async setAutoQuotaUpgrade(organizationId: number, autoQuotaUpgrade: boolean, _at: Date, tx?: Transaction): Promise<void> {
    this.joined.push(['setAutoQuotaUpgrade', tx]);
    this.accounts.set(organizationId, { ...(await this.get(organizationId)), autoQuotaUpgrade });
  }

  async charges(): Promise<Charge[]> {
    return [];
  }
}

/** Customers' tiers in memory, honouring the tenant scope and the compare-and-set of a move. */
export class FakeQuotaTierStore implements QuotaTierStore {
  readonly joined: Joined = [];
  readonly customers: Array<CustomerTier & { organizationId: number }> = [];

  add(customer: Partial<CustomerTier> & { organizationId?: number } = {}): CustomerTier {
    const id = this.customers.length + 1;
    const row = {
      customerId: id,
      publicId: `customer-${id}`,
      name: `Customer ${id}`,
      packageId: 1,
      packageKey: 'tiers',
      packageDisplayName: 'Tiers',
      tiers: [
        { monitorLimit: 1, priceMonthly: 0 },
        { monitorLimit: 2, priceMonthly: 19.5 },
        { monitorLimit: 4, priceMonthly: 29 },
      ],
      currentTierIndex: 0,
      monitorCount: 0,
      version: 1,
      organizationId: 1,
      ...customer,
    };
    this.customers.push(row);
    return row;
  }

  private visible(scope: TenantScope) {
    return this.customers.filter(
      (c) => c.organizationId === scope.organizationId && (scope.customerId === null || c.customerId === scope.customerId),
    );
  }

  async list(scope: TenantScope): Promise<CustomerTier[]> {
    return this.visible(scope).map((c) => ({ ...c }));
  }

  async lock(scope: TenantScope, customer: number | string, tx?: Transaction): Promise<CustomerTier | null> {
    this.joined.push(['lock', tx]);
    const row = this.visible(scope).find((c) => c.customerId === Number(customer) || c.publicId === customer);
    return row ? { ...row } : null;
  }

  async move(
    scope: TenantScope,
    customerId: number,
    fromTierIndex: number,
    toTierIndex: number,
    _at: Date,
    tx?: Transaction,
  ): Promise<number | null> {
    this.joined.push(['move', tx]);
    const row = this.visible(scope).find((c) => c.customerId === customerId);
    if (!row || row.currentTierIndex !== fromTierIndex) return null;
    Object.assign(row, { currentTierIndex: toTierIndex, version: row.version + 1 });
    return row.version;
  }
}

export class FakeDiscountCodes implements DiscountCodes {
  constructor(private readonly codes: Record<string, number> = { WELCOME10: 10, PARTNER25: 25 }) {}

  async percentOf(code: string): Promise<number | null> {
    return this.codes[code] ?? null;
  }
}
