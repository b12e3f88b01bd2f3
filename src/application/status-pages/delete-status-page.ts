import type { TransactionRunner } from '../shared/transaction';
import type { StatusPage } from '../../domain/status-pages/status-page';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { StatusPageRepository } from './ports';
import { findPageInScope } from './page-lookup';

/** DELETE /api/status-pages/{id}: the page, its incidents' updates and its subscribers go with it. */
export class DeleteStatusPage {
  constructor(
    private readonly pages: StatusPageRepository,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { id: string }): Promise<StatusPage> {
    requireAction(actor, 'statusPage.delete');
    const page = await findPageInScope(this.pages, actor.scope, input.id);
    await this.tx.run((tx) => this.pages.remove(page, tx));
    return page;
  }
}
