import type { StatusPage } from '../../domain/status-pages/status-page';
import type { Actor } from '../shared/actor';
import type { StatusPageRepository } from './ports';

/** GET /api/status-pages: the organization's pages, or a customer-scoped caller's own. */
export class ListStatusPages {
  constructor(private readonly pages: StatusPageRepository) {}

  execute(actor: Actor): Promise<StatusPage[]> {
    return this.pages.list(actor.scope);
  }
}
