import type { StatusPage } from '../../domain/status-pages/status-page';
import type { Actor } from '../shared/actor';
import type { StatusPageRepository } from './ports';
import { findPageInScope } from './page-lookup';

/** GET /api/status-pages/{id}. */
export class GetStatusPage {
  constructor(private readonly pages: StatusPageRepository) {}

  execute(actor: Actor, input: { id: string }): Promise<StatusPage> {
    return findPageInScope(this.pages, actor.scope, input.id);
  }
}
