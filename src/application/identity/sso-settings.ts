import { AppError } from '../../domain/shared/app-error';
import { SsoConnection } from '../../domain/identity/sso';
import type { Role } from '../../domain/identity/role';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { UserRepository } from './ports';
import type { SsoConnectionRepository, SsoSecretCipher } from './sso-ports';
import type { TransactionRunner } from '../shared/transaction';

export interface SsoSettingsInput {
  issuer: string;
  clientId: string;
  /** Required when the organization has no connection yet; kept when left out. */
  clientSecret?: string;
  allowedDomains: string[];
  defaultRole: Role;
  groupClaim?: string | null;
  /** Group name to role; checked by the domain (ssoGroupRoleInvalid naming the group). */
  groupRoles?: Readonly<Record<string, string>>;
  ssoOnly?: boolean;
  breakGlassUserId?: string | null;
}

export const secretContext = (organizationId: number) => `sso:${organizationId}`;

/** An organization admin's OpenID Connect provider: read (never the secret), set, removed. */
export class SsoSettings {
  constructor(
    private readonly connections: SsoConnectionRepository,
    private readonly users: UserRepository,
    private readonly cipher: SsoSecretCipher,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
  ) {}

  async get(actor: Actor): Promise<SsoConnection> {
    const organizationId = this.adminOrganization(actor);
    const connection = await this.connections.findByOrganization(organizationId);
    if (!connection) throw new AppError('ssoNotConfigured');
    return connection;
  }

  async configure(actor: Actor, input: SsoSettingsInput): Promise<SsoConnection> {
    const organizationId = this.adminOrganization(actor);
    const existing = await this.connections.findByOrganization(organizationId);
    if (!existing && !input.clientSecret) throw new AppError('validationFailed', { field: 'clientSecret' });
    const breakGlassUserId = input.breakGlassUserId ?? null;
    if (breakGlassUserId) {
      const user = await this.users.findById(actor.scope, breakGlassUserId);
      if (!user || !user.isActiveAdmin || user.customerId !== null)
        throw new AppError('ssoBreakGlassRequired', { field: 'breakGlassUserId', breakGlassUserId });
    }
    const connection = new SsoConnection({
      organizationId,
      issuer: input.issuer,
      clientId: input.clientId,
      clientSecretSealed: input.clientSecret
        ? this.cipher.encrypt(input.clientSecret, secretContext(organizationId))
        : existing!.clientSecretSealed,
      allowedDomains: input.allowedDomains,
      defaultRole: input.defaultRole,
      groupClaim: input.groupClaim ?? null,
      groupRoles: input.groupRoles ?? {},
      ssoOnly: input.ssoOnly ?? false,
      breakGlassUserId,
      updatedAt: this.clock.now(),
    });
    // The settings replace those read above: saved only if nobody saved others meanwhile (conflict).
    connection.version = existing?.version ?? 0;
    await this.tx.run((tx) => this.connections.save(connection, tx));
    return connection;
  }

  /** Idempotent: removing a provider that is not there is not an error. */
  async remove(actor: Actor): Promise<void> {
    const organizationId = this.adminOrganization(actor);
    await this.tx.run((tx) => this.connections.remove(organizationId, tx));
  }

  private adminOrganization(actor: Actor): number {
    requireAction(actor, 'sso.manage', 'forbidden');
    return actor.scope.organizationId;
  }
}
