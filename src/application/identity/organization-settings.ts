import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { BrandingChange, Organization, OrganizationProfileChange, OrganizationStatus } from '../../domain/identity/organization';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { OrganizationRepository, PlatformSettings, PlatformSettingsRepository } from './ports';

const MFA_FLAGS = ['requireMfaAdmins', 'requireMfaEditors', 'requireMfaReadonly'] as const;

/** GET/PATCH /api/organization, GET /api/organizations(/{id}), PATCH /api/organizations/{id}/billing. */
export class OrganizationSettings {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
  ) {}

  async own(actor: Actor): Promise<Organization> {
    const organization = await this.organizations.findById(actor.scope.organizationId);
    if (!organization) throw new AppError('organizationNotFound');
    return organization;
  }

  async update(actor: Actor, change: OrganizationProfileChange & BrandingChange): Promise<Organization> {
    requireAction(actor, 'organization.update');
    if (MFA_FLAGS.some((flag) => change[flag] !== undefined) && actor.kind !== 'session') {
      throw new AppError('nonUserSessionForbidden');
    }
    const organization = await this.own(actor);
    const { accentColor, logo, ...profile } = change;
    const now = this.clock.now();
    organization.updateBranding({ accentColor, logo }, now);
    organization.updateProfile(profile, now);
    await this.transactions.run((tx) => this.organizations.save(organization, tx));
    return organization;
  }

  /** Platform staff see every organization; everyone else sees their own. */
  async list(actor: Actor, page: { page: number; perPage: number }): Promise<{ items: Organization[]; total: number }> {
    if (actor.isPlatformAdmin || actor.isPlatformSupporter) return this.organizations.list(page);
    const own = await this.own(actor);
    return { items: page.page === 1 ? [own] : [], total: 1 };
  }

  /** By public id or legacy integer id; another tenant's organization is not found. */
  async get(actor: Actor, ref: string): Promise<Organization> {
    const organization = await this.organizations.findByRef(ref);
    const visible = organization && (actor.isPlatformAdmin || actor.isPlatformSupporter || organization.id === actor.scope.organizationId);
    if (!visible) throw new AppError('organizationNotFound');
    return organization;
  }

  /**
   * An organization the actor may change: their own as its admin, any as a platform admin. Platform
   * supporters see every organization (get) but change only their own: roleForbidden elsewhere.
   */
  async administered(actor: Actor, ref: string): Promise<Organization> {
    const organization = await this.get(actor, ref);
    if (actor.isPlatformAdmin) return organization;
    requireAction(actor, 'organization.update');
    if (organization.id !== actor.scope.organizationId) throw new AppError('roleForbidden');
    return organization;
  }

  async updateBilling(actor: Actor, ref: string, billingEmail: string): Promise<Organization> {
    const organization = await this.administered(actor, ref);
    organization.updateProfile({ billingEmail }, this.clock.now());
    await this.transactions.run((tx) => this.organizations.save(organization, tx));
    return organization;
  }
}

/** Platform administration: organization status and features, and the platform switches. */
export class PlatformAdministration {
  constructor(
    private readonly organizations: OrganizationRepository,
    private readonly settings: PlatformSettingsRepository,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
  ) {}

  async updateOrganization(
    actor: Actor,
    ref: string,
    change: { status?: OrganizationStatus; incidentManagementEnabled?: boolean },
  ): Promise<Organization> {
    requirePlatformAdmin(actor);
    const organization = await this.organizations.findByRef(ref);
    if (!organization) throw new AppError('organizationNotFound');
    const now = this.clock.now();
    if (change.status !== undefined) organization.changeStatus(change.status, now);
    if (change.incidentManagementEnabled !== undefined) organization.setIncidentManagement(change.incidentManagementEnabled, now);
    await this.transactions.run((tx) => this.organizations.save(organization, tx));
    return organization;
  }

  getSettings(actor: Actor): Promise<PlatformSettings> {
    requirePlatformAdmin(actor);
    return this.settings.get();
  }

  updateSettings(actor: Actor, change: Partial<PlatformSettings>): Promise<PlatformSettings> {
    requirePlatformAdmin(actor);
    return this.settings.update(change);
  }
}

export function requirePlatformAdmin(actor: Actor): void {
  if (!actor.isPlatformAdmin || actor.kind !== 'session') throw new AppError('platformAdminRequired');
}
