import type { TransactionRunner } from '../shared/transaction';
import type { StatusPage, StatusPageDefinition } from '../../domain/status-pages/status-page';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { PasswordHasher } from '../identity/ports';
import { NO_PAGE_OBJECTIVES, type ComponentCatalog, type PageObjectives, type StatusPageRepository } from './ports';
import { findPageInScope } from './page-lookup';
import { resolveGroups, resolveObjectives, type GroupInput } from './page-input';

export type StatusPageChange = Partial<Omit<StatusPageDefinition, 'groups' | 'objectives'>> & {
  groups?: GroupInput[];
  /** Replaces the objectives shown, by public or legacy id. */
  objectives?: string[];
  password?: string | null;
};

/** PATCH /api/status-pages/{id}: any field; groups, when sent, replace all groups; password null makes it open again. */
export class UpdateStatusPage {
  constructor(
    private readonly pages: StatusPageRepository,
    private readonly catalog: ComponentCatalog,
    private readonly hasher: PasswordHasher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    private readonly pageObjectives: PageObjectives = NO_PAGE_OBJECTIVES,
  ) {}

  async execute(actor: Actor, input: { id: string; change: StatusPageChange }): Promise<StatusPage> {
    requireAction(actor, 'statusPage.update');
    const page = await findPageInScope(this.pages, actor.scope, input.id);
    const now = this.clock.now();
    const { groups, objectives, password, ...rest } = input.change;
    page.change(
      {
        ...rest,
        ...(groups ? { groups: await resolveGroups(this.catalog, actor.scope, page.customerId, groups) } : {}),
        ...(objectives ? { objectives: await resolveObjectives(this.pageObjectives, actor.scope, page.customerId, objectives) } : {}),
      },
      now,
    );
    if (password !== undefined) page.setPassword(password ? await this.hasher.hash(password) : null, this.ids.uuid(), now);
    await this.tx.run((tx) => this.pages.save(page, tx));
    return page;
  }
}
