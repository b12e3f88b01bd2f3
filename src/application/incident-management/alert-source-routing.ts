import { AppError } from '../../domain/shared/app-error';
import type { AlertRouting } from '../../domain/incident-management/alert-source';
import type { EscalationPolicyDirectory, ImCustomerDirectory, ImTeamDirectory } from './ports';

export interface AlertRoutingInput {
  teamId?: string | null;
  escalationPolicyId?: string | null;
  customerId?: number | string | null;
}

/** Checks that every id names a record of the organization (the codes of incident create) and resolves the customer. */
export async function resolveRouting(
  organizationId: number,
  input: AlertRoutingInput,
  current: AlertRouting,
  directories: { teams: ImTeamDirectory; policies: EscalationPolicyDirectory; customers: ImCustomerDirectory },
): Promise<AlertRouting> {
  const teamId = input.teamId === undefined ? current.teamId : input.teamId;
  const escalationPolicyId = input.escalationPolicyId === undefined ? current.escalationPolicyId : input.escalationPolicyId;
  let customerId = current.customerId;
  if (input.customerId !== undefined) {
    customerId = input.customerId === null ? null : await directories.customers.resolve(organizationId, input.customerId);
    if (input.customerId !== null && customerId === null) throw new AppError('invalidCustomerId');
  }
  if (input.teamId && !(await directories.teams.exists(organizationId, input.teamId))) throw new AppError('invalidTeamId');
  if (input.escalationPolicyId && !(await directories.policies.exists(organizationId, input.escalationPolicyId))) {
    throw new AppError('imRoutingInvalidPolicyId');
  }
  return { teamId: teamId ?? null, escalationPolicyId: escalationPolicyId ?? null, customerId };
}
