import type { Transaction } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { TargetType, WindowTarget } from '../../domain/maintenance/maintenance-window';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { MaintenanceTargets, RecurrenceExpander, TargetRecord } from './ports';

/** A target as a request names it. */
export interface TargetInput {
  type: TargetType;
  id?: string | null;
}

const NOT_FOUND = {
  website: 'websiteNotFound',
  monitor: 'monitorNotFound',
  customer: 'customerNotFound',
  customerIp: 'customerIpNotFound',
  customerDomain: 'customerDomainNotFound',
} as const;

/**
 * Resolves requested targets inside the caller's scope. A target without an id answers
 * missingTargetId; one the caller cannot see answers its kind's not-found code.
 * Also answers the customer owning every target, when they all belong to one.
 */
export async function resolveTargets(
  targets: MaintenanceTargets,
  scope: TenantScope,
  inputs: readonly TargetInput[],
  /** The caller's transaction when it resolves inside one (an update), else none (read on the pool). */
  tx: Transaction | null = null,
): Promise<{ targets: WindowTarget[]; publicTargets: { type: TargetType; id: string }[]; customerId: number | null }> {
  const records: { type: TargetType; record: TargetRecord }[] = [];
  for (const [index, input] of inputs.entries()) {
    const ref = input.id?.trim();
    const field = `targets.${index}.id`;
    if (!ref) throw new AppError('missingTargetId', { field, type: input.type }, `A ${input.type} target needs an id`);
    const record = await (tx ? targets.findIn(scope, input.type, ref, tx) : targets.find(scope, input.type, ref));
    if (!record) throw new AppError(NOT_FOUND[input.type], { field, type: input.type, id: ref });
    records.push({ type: input.type, record });
  }
  const customers = new Set(records.map((r) => r.record.customerId));
  return {
    targets: records.map((r) => ({ type: r.type, id: r.record.id })),
    publicTargets: records.map((r) => ({ type: r.type, id: r.record.publicId })),
    customerId: scope.customerId ?? (customers.size === 1 ? [...customers][0]! : null),
  };
}

/** A rule the expander cannot use is a validation failure on the rrule field. */
export function assertRule(expander: RecurrenceExpander, rrule: string | null | undefined): void {
  if (rrule === null || rrule === undefined) return;
  const problem = expander.problem(rrule);
  if (problem) throw new AppError('validationFailed', { issues: [{ path: ['rrule'], message: problem, code: 'custom' }] });
}
