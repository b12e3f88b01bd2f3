import { organizationScope } from '../../domain/shared/tenant-scope';
import { assertMayWrite } from '../../domain/monitoring/ownership';
import { Tag, tagCustomer } from '../../domain/monitoring/tag';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import { assertAuthorizingUser, editorOf } from './monitor-editor';
import type { AuthorizingUsers, MonitorCustomerTermsLookup, TagRepository } from './ports';

/** POST /api/tags: a label in the fixed palette, owned by one customer or by the whole organization. */
export class CreateTag {
  constructor(
    private readonly tags: TagRepository,
    private readonly customers: MonitorCustomerTermsLookup,
    private readonly users: AuthorizingUsers,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { name: string; color: string; customerId?: number | string }): Promise<Tag> {
    await assertAuthorizingUser(actor, this.users);
    assertMayWrite(editorOf(actor));
    const scope = organizationScope(actor.scope.organizationId);
    let requested: { id: number; inOrganization: boolean } | null = null;
    if (input.customerId !== undefined) {
      const terms = await this.customers.forCustomer(scope, input.customerId);
      requested = { id: terms?.customerId ?? -1, inOrganization: terms !== null };
    }
    const severalCustomers = requested === null && actor.scope.customerId !== null && (await this.tags.severalCustomers(scope));
    const customerId = tagCustomer(actor.scope.customerId, requested, severalCustomers);
    return this.transactions.run((tx) =>
      this.tags.add(
        new Tag({
          publicId: this.ids.uuid(),
          organizationId: actor.scope.organizationId,
          customerId,
          name: input.name,
          color: input.color,
          now: this.clock.now(),
        }),
        tx,
      ),
    );
  }
}
