import type { StatusPageDirectory, StatusPageRef } from '../../application/custom-domains/ports';
import type { StatusPageRepository } from '../../application/status-pages/ports';
import { findPageInScope } from '../../application/status-pages/page-lookup';
import type { TenantScope } from '../../domain/shared/tenant-scope';

/**
 * Custom domains' view of the status pages context: a page the caller's scope reaches, by public or
 * legacy id, with the status pages' own statusPageNotFound rule (400 malformed or another scope,
 * 404 missing).
 */
export class StatusPagesDirectory implements StatusPageDirectory {
  constructor(private readonly pages: StatusPageRepository) {}

  async find(scope: TenantScope, ref: string): Promise<StatusPageRef | null> {
    const page = await findPageInScope(this.pages, scope, ref);
    return { id: page.publicId, customerId: page.customerId };
  }
}
