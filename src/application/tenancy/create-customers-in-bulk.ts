import { AppError, isAppError } from '../../domain/shared/app-error';
import type { Customer } from '../../domain/tenancy/customer';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { TransactionRunner } from '../shared/transaction';
import { requireOrganizationCaller } from './customer-access';
import type { CustomerFactory, NewCustomerInput } from './customer-factory';
import type { CustomerView, CustomerViews } from './customer-views';
import type { CustomerRepository } from './ports';

/** Why one row of a bulk create was refused. */
export interface BulkRowError {
  readonly index: number;
  readonly code: string;
  readonly message: string;
  readonly [detail: string]: unknown;
}

export const MAX_BULK_CUSTOMERS = 500;

/**
 * Creates many customers in one transaction: all or nothing. Rows the edge could not parse arrive
 * in `rejected`; every other row is checked here, and when any row fails the call answers 400
 * bulkRowsRejected listing each failed row (index, code, message, details) and creates nothing.
 */
export class CreateCustomersInBulk {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly factory: CustomerFactory,
    private readonly views: CustomerViews,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { rows: Array<NewCustomerInput | null>; rejected: BulkRowError[] }): Promise<CustomerView[]> {
    requireOrganizationCaller(actor);
    requireAction(actor, 'customer.create');
    const created = await this.tx.run(async (tx) => {
      const build = await this.factory.prepare(actor.scope, tx);
      const errors: BulkRowError[] = [...input.rejected];
      const customers: Customer[] = [];
      input.rows.forEach((row, index) => {
        if (row === null) return;
        try {
          customers.push(build(row));
        } catch (error) {
          if (!isAppError(error)) throw error;
          errors.push({ ...error.details, index, code: error.code, message: error.message });
        }
      });
      if (errors.length > 0) {
        throw new AppError(
          'bulkRowsRejected',
          { rows: errors.sort((a, b) => a.index - b.index) },
          'Some rows were rejected; nothing was created',
        );
      }
      return this.customers.addMany(customers, tx);
    });
    return this.views.of(actor.scope, created);
  }
}
