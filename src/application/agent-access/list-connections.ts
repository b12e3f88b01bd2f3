import { AppError } from '../../domain/shared/app-error';
import { isOrgAdmin, type Actor } from '../shared/actor';
import type { AgentAccessTokenRepository, AgentRegistrationRepository } from './ports';
import { groupConnections, type OauthConnection } from './oauth-connection';

/**
 * GET /api/oauth/connections: the agents and OAuth apps approved in the caller's tenant scope.
 * Organization admins see every connection of the organization; other users see those they approved.
 */
export class ListConnections {
  constructor(
    private readonly registrations: AgentRegistrationRepository,
    private readonly tokens: AgentAccessTokenRepository,
  ) {}

  async execute(actor: Actor): Promise<OauthConnection[]> {
    if (actor.kind === 'agent' || actor.userId === null) throw new AppError('nonUserSessionForbidden');
    const approved = await this.registrations.listApproved(actor.scope, isOrgAdmin(actor) ? null : actor.userId);
    const lastIssued = await this.tokens.lastIssuedAt(approved.map((r) => r.id));
    return groupConnections(approved, lastIssued);
  }
}
