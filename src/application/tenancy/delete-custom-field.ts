import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { TransactionRunner } from '../shared/transaction';
import { requireOrganizationCaller } from './customer-access';
import type { CustomFieldRepository, CustomerRepository } from './ports';

/** Deletes the definition and its values on every customer (deactivate it instead to keep them). */
export class DeleteCustomField {
  constructor(
    private readonly fields: CustomFieldRepository,
    private readonly customers: CustomerRepository,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<void> {
    requireOrganizationCaller(actor);
    requireAction(actor, 'customField.manage');
    await this.tx.run(async (tx) => {
      const field = await this.fields.findByRefIn(actor.scope, input.id, tx);
      if (!field) throw new AppError('customFieldNotFound');
      await this.fields.remove(field, tx);
      await this.customers.dropCustomFieldValues(actor.scope, field.fieldKey, tx);
    });
  }
}
