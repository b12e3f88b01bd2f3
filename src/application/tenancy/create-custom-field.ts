import { AppError } from '../../domain/shared/app-error';
import { CustomField, type CustomFieldSettings } from '../../domain/tenancy/custom-field';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import { requireOrganizationCaller } from './customer-access';
import type { CustomFieldRepository } from './ports';

export type CreateCustomFieldInput = Omit<CustomFieldSettings, 'isActive'> & { fieldKey: string; organizationId?: number };

/** Organization admins define custom fields; `organizationId`, when sent, must be their own. */
export class CreateCustomField {
  constructor(
    private readonly fields: CustomFieldRepository,
    private readonly tx: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: CreateCustomFieldInput): Promise<CustomField> {
    requireOrganizationCaller(actor);
    requireAction(actor, 'customField.manage');
    const { organizationId, ...settings } = input;
    if (organizationId !== undefined && organizationId !== actor.scope.organizationId) throw new AppError('organizationNotFound');
    const field = new CustomField({
      ...settings,
      publicId: this.ids.uuid(),
      organizationId: actor.scope.organizationId,
      now: this.clock.now(),
    });
    return this.tx.run((tx) => this.fields.add(field, tx));
  }
}
