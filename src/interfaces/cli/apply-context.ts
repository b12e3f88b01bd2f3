import type { ApiClient } from './api-client';
import type { MonitorIds } from './linked-resources';
import type { Desired } from './resources';

/** What carrying out a plan needs: the client, the ids it learns as it goes, the resolver of references, the printer. */
export interface ApplyContext {
  readonly client: ApiClient;
  /** The tags the service has, by identityOf: their publicIds (created ones are added). */
  readonly tagIds: Map<string, string>;
  /** The monitors' publicIds by key (or publicId): the service's, and those created as apply goes. */
  readonly monitorIds: MonitorIds;
  /** The entry value with its references resolved. */
  readonly resolve: (value: unknown, desired: Desired, field: string) => unknown;
  readonly print: (line: string) => void;
}
