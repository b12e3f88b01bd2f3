import type { StatusPageDirectory, StatusPageRef } from '../../application/custom-domains/ports';
import type { TenantScope } from '../../domain/shared/tenant-scope';

/**
 * The directory while the service has no status pages: every page id is unknown, so a `statusPage`
 * entry answers statusPageNotFound. The status pages context binds its own in its place.
 */
export class NoStatusPages implements StatusPageDirectory {
  async find(_scope: TenantScope, _ref: string): Promise<StatusPageRef | null> {
    return null;
  }
}
