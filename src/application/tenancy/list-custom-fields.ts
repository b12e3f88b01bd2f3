import type { CustomField } from '../../domain/tenancy/custom-field';
import type { Actor } from '../shared/actor';
import { requireOrganizationCaller } from './customer-access';
import type { CustomFieldRepository } from './ports';

/** Definitions in display order, inactive ones included (flagged isActive: false). */
export class ListCustomFields {
  constructor(private readonly fields: CustomFieldRepository) {}

  execute(actor: Actor): Promise<CustomField[]> {
    requireOrganizationCaller(actor);
    return this.fields.list(actor.scope);
  }
}
