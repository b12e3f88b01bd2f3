import type { ApiClient } from './api-client';
import { type Actual, channelFromRecord, MONITOR_KINDS_LISTED, monitorFromRecord, tagFromRecord } from './resources';

/** What the token sees on the service, as resources: its customers' ids, tags and monitors of every kind. */
export interface ServiceState {
  readonly customers: ReadonlyMap<number, string>;
  readonly resources: readonly Actual[];
}

export async function readServiceState(client: ApiClient): Promise<ServiceState> {
  const [customerList, tagList, channelList, ...monitorLists] = await Promise.all([
    client.customers(),
    client.tags(),
    client.channels(),
    ...MONITOR_KINDS_LISTED.map((kind) => client.monitors(kind)),
  ]);
  const customers = new Map<number, string>(customerList.map((c) => [c.id as number, c.publicId as string]));
  const tags = tagList.map((t) => tagFromRecord(t, customers));
  const monitors = monitorLists.flatMap((records, i) => records.map((r) => monitorFromRecord(MONITOR_KINDS_LISTED[i]!, r)));
  const channels = channelList.map((c) => channelFromRecord(c, customers)).filter((c): c is Actual => c !== null);
  return { customers, resources: [...tags, ...channels, ...monitors] };
}
