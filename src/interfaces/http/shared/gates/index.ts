import type { Gate } from './gate-request';
import { accountActiveGate, csrfGate, mfaEnrollmentGate } from './account.gates';
import { organizationStatusGate } from './organization-status.gate';
import { customerScopeGate } from './customer-scope.gate';
import { agentScopeGate } from './agent-scope.gate';
import type { PlatformSettings } from '../../../../application/identity/ports';

export type { Gate, GateRequest } from './gate-request';

const AGENTS_OFF = async (): Promise<PlatformSettings> => ({
  agentAuthEnabled: false,
  agentWritesEnabled: false,
  serviceAuthEnabled: false,
});

/**
 * The access pipeline every authenticated request passes, in order, after the path check and
 * authentication. Role gates and tenant scope (404 for out-of-scope records) follow in use cases.
 */
export function accessGates(options: {
  trustedOrigins: readonly string[];
  /** The platform switches the agent gate reads (agent auth, agent writes); without them agent tokens are refused. */
  platformSwitches?: () => Promise<PlatformSettings>;
  extra?: Gate[];
}): Gate[] {
  return [
    accountActiveGate,
    csrfGate(options.trustedOrigins),
    organizationStatusGate,
    agentScopeGate(options.platformSwitches ?? AGENTS_OFF),
    ...(options.extra ?? []),
    customerScopeGate,
    mfaEnrollmentGate,
  ];
}
