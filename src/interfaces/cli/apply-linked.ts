import type { ApplyContext } from './apply-context';
import type { ComponentRef, TargetRef } from './file-schema';
import { groupsForApi, targetsForApi } from './linked-resources';
import type { Change } from './plan';

const PATHS = {
  customField: '/api/custom-fields',
  maintenanceWindow: '/api/maintenance-windows',
  statusPage: '/api/status-pages',
} as const;

/**
 * A custom field, maintenance window or status page: created with its key (a field's fieldKey, a
 * page's slug, a window's key), changed by the fields that differ (targets and groups whole, their
 * monitors turned from keys into publicIds), deleted.
 */
export async function carryOutLinked(change: Change, { client, resolve, monitorIds }: ApplyContext): Promise<void> {
  const base = PATHS[change.type as keyof typeof PATHS];
  if (change.action === 'delete') return client.request('DELETE', `${base}/${encodeURIComponent(change.actual!.id)}`);
  const desired = change.desired!;
  const body: Record<string, unknown> = {};
  for (const { field } of change.fields) {
    const value = resolve(desired.fields[field], desired, field);
    body[field] =
      field === 'targets'
        ? targetsForApi(value as TargetRef[], monitorIds)
        : field === 'groups' && change.type === 'statusPage'
          ? groupsForApi(value as Array<{ name: string; components: ComponentRef[] }>, monitorIds)
          : value;
  }
  if (change.action === 'update') {
    await client.request('PATCH', `${base}/${encodeURIComponent(change.actual!.id)}`, body);
    return;
  }
  const identity =
    change.type === 'customField'
      ? { fieldKey: change.key }
      : change.type === 'statusPage'
        ? { slug: change.key, ...(change.customer ? { customerId: change.customer } : {}) }
        : { key: change.key };
  await client.request('POST', base, { ...identity, ...body });
}
