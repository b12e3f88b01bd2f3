import { AgentRegistration, type RegistrationStatus } from '../../domain/agent-access/agent-registration';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { AgentRegistrationRepository } from '../../application/agent-access/ports';
import { OrmRepository } from '../persistence/orm-repository';
import { scopeFilter } from '../persistence/tenant-scope';

const APPROVED: RegistrationStatus[] = ['claimed', 'authorized'];

export class MikroOrmAgentRegistrationRepository extends OrmRepository implements AgentRegistrationRepository {
  add(registration: AgentRegistration): Promise<void> {
    return this.persist(registration);
  }

  findById(id: string): Promise<AgentRegistration | null> {
    return this.em.findOne(AgentRegistration, { id });
  }

  findByClaimTokenHash(hash: string): Promise<AgentRegistration | null> {
    return this.em.findOne(AgentRegistration, { claimTokenHash: hash });
  }

  findByUserCodeHash(hash: string): Promise<AgentRegistration | null> {
    return this.em.findOne(AgentRegistration, { userCodeHash: hash });
  }

  findIdJag(issuer: string, subject: string, clientId: string): Promise<AgentRegistration[]> {
    return this.em.find(AgentRegistration, { issuer, subject, clientId }, { orderBy: { createdAt: 'desc' } });
  }

  findByIssuer(issuer: string, match: { subject?: string; userIds?: string[]; ids?: string[] }): Promise<AgentRegistration[]> {
    return this.em.find(AgentRegistration, {
      issuer,
      ...(match.subject !== undefined ? { subject: match.subject } : {}),
      ...(match.userIds !== undefined ? { userId: { $in: match.userIds } } : {}),
      ...(match.ids !== undefined ? { id: { $in: match.ids } } : {}),
    });
  }

  listApproved(scope: TenantScope, authorizedBy: string | null): Promise<AgentRegistration[]> {
    return this.em.find(
      AgentRegistration,
      {
        status: { $in: APPROVED },
        ...scopeFilter(scope),
        ...(authorizedBy !== null ? { userId: authorizedBy } : {}),
      },
      { orderBy: { claimedAt: 'asc', id: 'asc' } },
    );
  }

  save(registration: AgentRegistration): Promise<void> {
    return this.persist(registration);
  }

  purge(closedBefore: Date, revokedBefore: Date): Promise<number> {
    return this.em.nativeDelete(AgentRegistration, {
      $or: [
        { status: { $in: ['active', 'pending'] }, claimExpiresAt: { $lt: closedBefore } },
        { status: 'revoked', revokedAt: { $lt: revokedBefore } },
      ],
    });
  }
}
