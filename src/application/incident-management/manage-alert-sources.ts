import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { AlertSource, GenericMapping } from '../../domain/incident-management/alert-source';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { AlertSourceRepository, EscalationPolicyDirectory, ImCustomerDirectory, ImTeamDirectory } from './ports';
import { resolveRouting, type AlertRoutingInput } from './alert-source-routing';

/** Missing and other organizations' sources alike answer 404 notFound. */
export async function findAlertSource(sources: AlertSourceRepository, scope: TenantScope, ref: string): Promise<AlertSource> {
  const source = await sources.findByRef(scope, ref);
  if (!source) throw new AppError('notFound', {}, 'Alert source not found');
  return source;
}

export class ListAlertSources {
  constructor(private readonly sources: AlertSourceRepository) {}
  execute(actor: Actor): Promise<AlertSource[]> {
    return this.sources.list(actor.scope);
  }
}

export class GetAlertSource {
  constructor(private readonly sources: AlertSourceRepository) {}
  execute(actor: Actor, ref: string): Promise<AlertSource> {
    return findAlertSource(this.sources, actor.scope, ref);
  }
}

export interface UpdateAlertSourceInput extends AlertRoutingInput {
  name?: string;
  mapping?: GenericMapping;
}

/** Renames a source, changes its generic mapping or its routing; the token stays. */
export class UpdateAlertSource {
  constructor(
    private readonly sources: AlertSourceRepository,
    private readonly teams: ImTeamDirectory,
    private readonly policies: EscalationPolicyDirectory,
    private readonly customers: ImCustomerDirectory,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, ref: string, change: UpdateAlertSourceInput): Promise<AlertSource> {
    const source = await findAlertSource(this.sources, actor.scope, ref);
    const routing = await resolveRouting(actor.scope.organizationId, change, source.routing, {
      teams: this.teams,
      policies: this.policies,
      customers: this.customers,
    });
    source.change({ name: change.name, mapping: change.mapping, routing }, this.clock.now());
    await this.tx.run((tx) => this.sources.save(actor.scope, source, tx));
    return source;
  }
}

/** Deleting a source makes its token unknown at once; its incidents stay. */
export class DeleteAlertSource {
  constructor(
    private readonly sources: AlertSourceRepository,
    private readonly tx: TransactionRunner,
  ) {}
  async execute(actor: Actor, ref: string): Promise<AlertSource> {
    const source = await findAlertSource(this.sources, actor.scope, ref);
    await this.tx.run((tx) => this.sources.remove(actor.scope, source, tx));
    return source;
  }
}
