import { smsMonthOf } from '../../domain/tenancy/sms-month';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { CustomerView, CustomerViews } from './customer-views';
import type { CustomerRepository } from './ports';

export interface SmsUsageReport {
  /** First day of the month counted, `YYYY-MM-01` (UTC). */
  readonly month: string;
  readonly customers: CustomerView[];
}

/** This month's SMS count against each visible customer's package allowance. */
export class GetSmsUsage {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly views: CustomerViews,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor): Promise<SmsUsageReport> {
    const month = smsMonthOf(this.clock.now());
    return { month, customers: await this.views.of(actor.scope, await this.customers.list(actor.scope)) };
  }
}
