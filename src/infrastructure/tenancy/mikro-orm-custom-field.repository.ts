import { CustomField } from '../../domain/tenancy/custom-field';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { CustomFieldRepository } from '../../application/tenancy/ports';
import { refFilter } from '../persistence/tenant-scope';
import { TenancyRepository } from './tenancy-repository';

export class MikroOrmCustomFieldRepository extends TenancyRepository implements CustomFieldRepository {
  list(scope: TenantScope): Promise<CustomField[]> {
    return this.em.find(CustomField, { organizationId: scope.organizationId }, { orderBy: { displayOrder: 'asc', id: 'asc' } });
  }

  async findByRef(scope: TenantScope, ref: string): Promise<CustomField | null> {
    const filter = refFilter(ref);
    return filter ? this.em.findOne(CustomField, { ...filter, organizationId: scope.organizationId }) : null;
  }

  async add(field: CustomField): Promise<CustomField> {
    this.em.persist(field);
    await this.flushUnique('customFieldKeyTaken');
    return field;
  }

  save(field: CustomField): Promise<void> {
    return this.persist(field);
  }

  async remove(field: CustomField): Promise<void> {
    this.em.remove(field);
    await this.flush();
  }
}
