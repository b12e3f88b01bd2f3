import { AppError } from '../../domain/shared/app-error';
import { ImIncident, type ImSeverity } from '../../domain/incident-management/im-incident';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import type { EscalationPolicyDirectory, ImCustomerDirectory, ImIncidentRepository, ImTeamDirectory } from './ports';

export interface CreateImIncidentInput {
  title: string;
  description?: string | null;
  severity?: ImSeverity;
  teamId?: string | null;
  customerId?: number | string | null;
  escalationPolicyId?: string | null;
}

/** Declares an incident by hand. Every id it names must be one of the caller's organization. */
export class CreateImIncident {
  constructor(
    private readonly incidents: ImIncidentRepository,
    private readonly teams: ImTeamDirectory,
    private readonly policies: EscalationPolicyDirectory,
    private readonly customers: ImCustomerDirectory,
    private readonly transactions: TransactionRunner,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: CreateImIncidentInput): Promise<ImIncident> {
    const organizationId = actor.scope.organizationId;
    if (input.teamId && !(await this.teams.exists(organizationId, input.teamId))) throw new AppError('invalidTeamId');
    let customerId: number | null = null;
    if (input.customerId !== undefined && input.customerId !== null) {
      customerId = await this.customers.resolve(organizationId, input.customerId);
      if (customerId === null) throw new AppError('invalidCustomerId');
    }
    if (input.escalationPolicyId && !(await this.policies.exists(organizationId, input.escalationPolicyId))) {
      throw new AppError('imRoutingInvalidPolicyId');
    }
    const incident = ImIncident.trigger(
      {
        publicId: this.ids.uuid(),
        organizationId,
        title: input.title,
        description: input.description ?? null,
        severity: input.severity ?? 'critical',
        source: null,
        teamId: input.teamId ?? null,
        customerId,
        escalationPolicyId: input.escalationPolicyId ?? null,
        dedupKey: this.ids.uuid(),
        createdByUserId: actor.userId,
        now: this.clock.now(),
      },
      { origin: 'manual' },
    );
    return this.transactions.run((tx) => this.incidents.add(actor.scope, incident, tx));
  }
}
