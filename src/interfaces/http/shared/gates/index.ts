import type { Gate } from './gate-request';
import { accountActiveGate, csrfGate, mfaEnrollmentGate } from './account.gates';
import { organizationStatusGate } from './organization-status.gate';
import { customerScopeGate } from './customer-scope.gate';

export type { Gate, GateRequest } from './gate-request';

/**
 * The access pipeline every authenticated request passes, in order, after the path check and
 * authentication. Role gates and tenant scope (404 for out-of-scope records) follow in use cases.
 */
export function accessGates(options: { trustedOrigins: readonly string[]; extra?: Gate[] }): Gate[] {
  return [
    accountActiveGate,
    csrfGate(options.trustedOrigins),
    organizationStatusGate,
    ...(options.extra ?? []),
    customerScopeGate,
    mfaEnrollmentGate,
  ];
}
