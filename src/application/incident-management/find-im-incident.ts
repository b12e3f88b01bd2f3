import { AppError } from '../../domain/shared/app-error';
import type { ImIncident } from '../../domain/incident-management/im-incident';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { ImIncidentRepository } from './ports';

/** Missing and other organizations' incidents alike answer imIncidentNotFound. */
export async function findImIncident(incidents: ImIncidentRepository, scope: TenantScope, ref: string): Promise<ImIncident> {
  const incident = await incidents.findByRef(scope, ref);
  if (!incident) throw new AppError('imIncidentNotFound');
  return incident;
}
