import { AppError } from '../../domain/shared/app-error';
import type { ComponentGroup, ComponentType, PageComponent } from '../../domain/status-pages/status-page';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { ComponentCatalog, PageObjectives } from './ports';

/** A component as a caller names it: its type, and its record's public or legacy id. */
export interface ComponentInput {
  type: ComponentType;
  id: string;
  name?: string | null;
}
export interface GroupInput {
  name: string;
  components: ComponentInput[];
}

const NOT_FOUND = { monitor: 'monitorNotFound', customerDomain: 'customerDomainNotFound', customerIp: 'customerIpNotFound' } as const;

/**
 * Resolves every component inside the scope; on a customer's page (pageCustomerId set) a component
 * of another customer is as invisible as a missing one (the type's not-found code, 404).
 */
export async function resolveGroups(
  catalog: ComponentCatalog,
  scope: TenantScope,
  pageCustomerId: number | null,
  groups: readonly GroupInput[],
): Promise<ComponentGroup[]> {
  const resolved: ComponentGroup[] = [];
  for (const group of groups) {
    const components: PageComponent[] = [];
    for (const input of group.components) {
      const record = await catalog.find(scope, input.type, input.id);
      if (!record || (pageCustomerId !== null && record.customerId !== pageCustomerId)) {
        throw new AppError(NOT_FOUND[input.type], { componentId: input.id });
      }
      components.push({ type: input.type, id: record.id, name: input.name ?? null });
    }
    resolved.push({ name: group.name, components });
  }
  return resolved;
}

/**
 * Resolves the service level objectives a page shows inside the scope; on a customer's page an
 * objective of another customer is as invisible as a missing one (serviceLevelObjectiveNotFound, 404).
 */
export async function resolveObjectives(
  objectives: PageObjectives,
  scope: TenantScope,
  pageCustomerId: number | null,
  refs: readonly string[],
): Promise<number[]> {
  const ids: number[] = [];
  for (const ref of refs) {
    const record = await objectives.find(scope, ref);
    if (!record || (pageCustomerId !== null && record.customerId !== pageCustomerId))
      throw new AppError('serviceLevelObjectiveNotFound', { objectiveId: ref });
    ids.push(record.id);
  }
  return ids;
}
