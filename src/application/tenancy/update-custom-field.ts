import { AppError } from '../../domain/shared/app-error';
import type { CustomField, CustomFieldSettings } from '../../domain/tenancy/custom-field';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import { requireOrganizationCaller } from './customer-access';
import type { CustomFieldRepository } from './ports';

/** The key is fixed once created; stored customer values are not revalidated by a change. */
export class UpdateCustomField {
  constructor(
    private readonly fields: CustomFieldRepository,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { id: string; change: Partial<CustomFieldSettings> }): Promise<CustomField> {
    requireOrganizationCaller(actor);
    requireAction(actor, 'customField.manage');
    return this.tx.run(async (tx) => {
      const field = await this.fields.findByRefIn(actor.scope, input.id, tx);
      if (!field) throw new AppError('customFieldNotFound');
      field.change(input.change, this.clock.now());
      await this.fields.save(field, tx);
      return field;
    });
  }
}
