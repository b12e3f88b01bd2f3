import type { TransactionRunner } from '../shared/transaction';
import { AlertSource, type AlertSourceKind, type GenericMapping } from '../../domain/incident-management/alert-source';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { SecretTokens } from '../identity/ports';
import type { AlertSourceRepository, EscalationPolicyDirectory, ImCustomerDirectory, ImTeamDirectory } from './ports';
import { resolveRouting, type AlertRoutingInput } from './alert-source-routing';

/** Alert-source tokens carry this prefix, so secret scanners and people can tell them apart. */
export const ALERT_SOURCE_TOKEN_PREFIX = 'wsmi_';

export interface CreateAlertSourceInput extends AlertRoutingInput {
  name: string;
  kind: AlertSourceKind;
  mapping?: GenericMapping;
}

/** Creates a source and answers its token, the only time it is shown (only its digest is stored). */
export class CreateAlertSource {
  constructor(
    private readonly sources: AlertSourceRepository,
    private readonly teams: ImTeamDirectory,
    private readonly policies: EscalationPolicyDirectory,
    private readonly customers: ImCustomerDirectory,
    private readonly secrets: SecretTokens,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: CreateAlertSourceInput): Promise<{ source: AlertSource; token: string }> {
    const routing = await resolveRouting(
      actor.scope.organizationId,
      input,
      { teamId: null, escalationPolicyId: null, customerId: null },
      { teams: this.teams, policies: this.policies, customers: this.customers },
    );
    const token = this.secrets.generate(ALERT_SOURCE_TOKEN_PREFIX);
    const source = new AlertSource({
      publicId: this.ids.uuid(),
      organizationId: actor.scope.organizationId,
      name: input.name,
      kind: input.kind,
      mapping: input.mapping,
      routing,
      tokenHash: this.secrets.hash(token),
      tokenHint: token.slice(-4),
      createdByUserId: actor.userId,
      now: this.clock.now(),
    });
    return { source: await this.tx.run((tx) => this.sources.add(actor.scope, source, tx)), token };
  }
}
