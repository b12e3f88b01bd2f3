import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import { StatusPage, type StatusPageDefinition } from '../../domain/status-pages/status-page';
import type { Actor } from '../shared/actor';
import { requireAction } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { PasswordHasher } from '../identity/ports';
import { NO_PAGE_OBJECTIVES, type ComponentCatalog, type PageObjectives, type StatusPageRepository } from './ports';
import { resolveGroups, resolveObjectives, type GroupInput } from './page-input';

export type NewStatusPageInput = Omit<StatusPageDefinition, 'groups' | 'objectives'> & {
  groups: GroupInput[];
  /** Service level objectives to show, by public or legacy id (default none). */
  objectives?: string[];
  /** The customer owning the page by public or legacy id (organization callers; a customer-scoped caller's pages are its customer's). */
  customerId: string | null;
  password: string | null;
};

/** POST /api/status-pages: a page of the organization, or of one customer (always so for customer-scoped callers). */
export class CreateStatusPage {
  constructor(
    private readonly pages: StatusPageRepository,
    private readonly catalog: ComponentCatalog,
    private readonly hasher: PasswordHasher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
    private readonly pageObjectives: PageObjectives = NO_PAGE_OBJECTIVES,
  ) {}

  async execute(actor: Actor, input: NewStatusPageInput): Promise<StatusPage> {
    requireAction(actor, 'statusPage.create');
    let customerId = actor.scope.customerId;
    if (customerId === null && input.customerId !== null) {
      customerId = await this.catalog.customer(actor.scope, input.customerId);
      if (customerId === null) throw new AppError('customerNotFound');
    }
    const groups = await resolveGroups(this.catalog, actor.scope, customerId, input.groups);
    const objectives = await resolveObjectives(this.pageObjectives, actor.scope, customerId, input.objectives ?? []);
    const { password, customerId: _ignored, objectives: _refs, ...definition } = input;
    const page = StatusPage.create(
      {
        ...definition,
        groups,
        objectives,
        publicId: this.ids.uuid(),
        organizationId: actor.scope.organizationId,
        customerId,
        passwordHash: password ? await this.hasher.hash(password) : null,
        accessSecret: this.ids.uuid(),
      },
      this.clock.now(),
    );
    return this.tx.run((tx) => this.pages.add(page, tx));
  }
}
