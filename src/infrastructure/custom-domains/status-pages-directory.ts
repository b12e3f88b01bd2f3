import { AppError, isAppError } from '../../domain/shared/app-error';
import type { StatusPageDirectory, StatusPageRef } from '../../application/custom-domains/ports';
import type { StatusPageRepository } from '../../application/status-pages/ports';
import { findPageInScope } from '../../application/status-pages/page-lookup';
import type { TenantScope } from '../../domain/shared/tenant-scope';

/**
 * Custom domains' view of the status pages context: a page the caller's scope reaches, by public or
 * legacy id. The id comes in a request body, so any id that names no page of the caller (malformed,
 * missing, or another organization's) is the same 400 statusPageNotFound, with the same body.
 */
export class StatusPagesDirectory implements StatusPageDirectory {
  constructor(private readonly pages: StatusPageRepository) {}

  async find(scope: TenantScope, ref: string): Promise<StatusPageRef | null> {
    try {
      const page = await findPageInScope(this.pages, scope, ref);
      return { id: page.publicId, customerId: page.customerId };
    } catch (error) {
      if (isAppError(error) && error.code === 'statusPageNotFound') {
        throw new AppError('statusPageNotFound', { reason: 'unknownStatusPageId' }, 'statusPageId names no status page of yours');
      }
      throw error;
    }
  }
}
