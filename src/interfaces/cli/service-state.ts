import { ApiError, type ApiClient, type ApiRecord } from './api-client';
import { customFieldFromRecord, pageFromRecord, windowFromRecord } from './linked-resources';
import { type Actual, channelFromRecord, MONITOR_KINDS_LISTED, monitorFromRecord, tagFromRecord } from './resources';

/** What the token sees on the service, as resources: its customers' ids, tags and monitors of every kind. */
export interface ServiceState {
  readonly customers: ReadonlyMap<number, string>;
  readonly resources: readonly Actual[];
}

export async function readServiceState(client: ApiClient): Promise<ServiceState> {
  const [customerList, tagList, channelList, fieldList, windowList, pageList, ...monitorLists] = await Promise.all([
    client.customers(),
    client.tags(),
    client.channels(),
    organizationOnly(client.all('/api/custom-fields')),
    client.all('/api/maintenance-windows'),
    client.all('/api/status-pages'),
    // Each page's records projected as it arrives.
    ...MONITOR_KINDS_LISTED.map((kind) => client.monitors(kind, undefined, (record) => monitorFromRecord(kind, record))),
  ]);
  const customers = new Map<number, string>(customerList.map((c) => [c.id as number, c.publicId as string]));
  const tags = tagList.map((t) => tagFromRecord(t, customers));
  const monitors: Actual[] = monitorLists.flat();
  const channels = channelList.map((c) => channelFromRecord(c, customers)).filter((c): c is Actual => c !== null);
  const keys = new Map(monitors.map((m) => [m.id, m.key]));
  const linked = [
    ...fieldList.map(customFieldFromRecord),
    ...windowList.map((w) => windowFromRecord(w, customers, keys)),
    ...pageList.map((p) => pageFromRecord(p, customers, keys)),
  ];
  return { customers, resources: [...tags, ...channels, ...monitors, ...linked] };
}

/** A list only the organization's callers may read: none for a customer's token. */
async function organizationOnly(list: Promise<ApiRecord[]>): Promise<ApiRecord[]> {
  try {
    return await list;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return [];
    throw error;
  }
}
