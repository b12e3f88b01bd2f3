import { AppError } from '../../../../domain/shared/app-error';
import type { ErrorCode } from '../../../../domain/shared/error-codes';
import { agentReachDenial } from '../../../../domain/agent-access/agent-reach';
import type { Actor } from '../../../../application/shared/actor';
import type { PlatformSettings } from '../../../../application/identity/ports';
import type { Gate } from './gate-request';

/**
 * The agent gate as a pure decision: other callers pass; with agent auth switched off, agent tokens
 * get 503 (like the token endpoint); otherwise the scope allowlists and the write kill-switch decide.
 */
export function agentScopeDecision(actor: Actor, method: string, path: string, switches: PlatformSettings): ErrorCode | null {
  if (actor.kind !== 'agent') return null;
  if (!switches.agentAuthEnabled) return 'agentAuthUnavailable';
  return agentReachDenial({
    scopes: actor.agentScopes,
    authorizingUserResolved: actor.userId !== null,
    writesEnabled: switches.agentWritesEnabled,
    method,
    path,
  });
}

/** wsma_ callers only: reads the platform switches (cached briefly) and applies the decision. */
export const agentScopeGate =
  (switches: () => Promise<PlatformSettings>): Gate =>
  async (caller, request) => {
    if (caller.actor.kind !== 'agent') return;
    const denial = agentScopeDecision(caller.actor, request.method, request.path, await switches());
    if (denial) throw new AppError(denial);
  };
