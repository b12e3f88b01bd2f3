import type { ChangeRequest } from '../../domain/monitoring/change-request';
import type { Actor } from '../shared/actor';
import type { ChangeRequestFilter, ChangeRequestRepository, Page, PageOf } from './ports';

/** GET /api/change-requests: newest first; customer-scoped callers see their customer's only. */
export class ListChangeRequests {
  constructor(private readonly requests: ChangeRequestRepository) {}

  execute(actor: Actor, { filter, page }: { filter: ChangeRequestFilter; page: Page }): Promise<PageOf<ChangeRequest>> {
    return this.requests.list(actor.scope, filter, page);
  }
}
