import { AppError } from '../../domain/shared/app-error';
import type { ImIncident } from '../../domain/incident-management/im-incident';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Transaction } from '../shared/transaction';
import type { ImIncidentRepository } from './ports';

/**
 * Missing and other organizations' incidents alike answer imIncidentNotFound. `tx`: the transaction
 * whose work reads it (on its connection), or null outside one (the pool).
 */
export async function findImIncident(
  incidents: ImIncidentRepository,
  scope: TenantScope,
  ref: string,
  tx: Transaction | null,
): Promise<ImIncident> {
  const incident = await (tx ? incidents.readsIn(tx) : incidents).findByRef(scope, ref);
  if (!incident) throw new AppError('imIncidentNotFound');
  return incident;
}
