import { AppError } from '../../domain/shared/app-error';
import { organizationScope } from '../../domain/shared/tenant-scope';
import { User } from '../../domain/identity/user';
import type { Role } from '../../domain/identity/role';
import { acceptUrlOf, invitationExpiry, invitationMail, type Invitation } from '../../domain/identity/invitation';
import { requireAction, type Actor } from '../shared/actor';
import type { AuditTrail } from '../audit/ports';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import type { CustomerDirectory, OrganizationRepository, PasswordHasher, SecretTokens, UserRepository } from './ports';
import type { InvitationMailer, InvitationRepository } from './invitation-ports';
import type { IssuedSession, SessionIssuer } from './sessions';

export interface InviteInput {
  email: string;
  role: Role;
  customerId?: number | null;
}

export interface CreatedInvitation {
  invitation: Invitation;
  /** Whether the e-mail went out. */
  mailed: boolean;
  /** The link, for the inviting admin only, when the e-mail could not be sent. */
  acceptUrl: string | null;
}

export interface InvitationPreview {
  organizationName: string;
  email: string;
  role: Role;
  expiresAt: Date;
}

export interface InvitationsDeps {
  invitations: InvitationRepository;
  users: UserRepository;
  organizations: OrganizationRepository;
  customers: CustomerDirectory;
  passwords: PasswordHasher;
  secrets: SecretTokens;
  sessions: SessionIssuer;
  mailer: InvitationMailer;
  audit: AuditTrail;
  tx: TransactionRunner;
  ids: IdGenerator;
  clock: Clock;
  /** PUBLIC_BASE_URL: where the console's invitation page is. */
  publicBaseUrl: string;
}

/** POST/GET /api/invitations, DELETE /api/invitations/{id}, GET/POST /api/invitations/accept/{token}. */
export class Invitations {
  constructor(private readonly d: InvitationsDeps) {}

  async create(actor: Actor, input: InviteInput): Promise<CreatedInvitation> {
    requireAction(actor, 'invitation.manage');
    const organizationId = actor.scope.organizationId;
    const customerId = input.customerId ?? null;
    if (customerId !== null && !(await this.d.customers.exists(organizationScope(organizationId), customerId))) {
      throw new AppError('invalidCustomer');
    }
    const email = input.email.trim().toLowerCase();
    const now = this.d.clock.now();
    const token = this.d.secrets.generate('');
    const invitation: Invitation = {
      id: this.d.ids.uuid(),
      organizationId,
      customerId,
      email,
      role: input.role,
      invitedBy: actor.userId ?? null,
      createdAt: now,
      expiresAt: invitationExpiry(now),
    };
    await this.d.tx.run(async (tx) => {
      if (await this.d.users.findByEmailIn(email, tx)) throw new AppError('emailAlreadyRegistered');
      if (await this.d.invitations.hasPendingIn(organizationId, email, now, tx)) throw new AppError('invitationAlreadyPending');
      await this.d.invitations.add(invitation, this.d.secrets.hash(token), tx);
    });
    const url = acceptUrlOf(this.d.publicBaseUrl, token);
    const organization = await this.d.organizations.findById(organizationId);
    const mailed = await this.d.mailer
      .send(organizationId, email, invitationMail(organization?.name ?? 'your organization', url, invitation.expiresAt))
      .catch(() => false);
    return { invitation, mailed, acceptUrl: mailed ? null : url };
  }

  list(actor: Actor): Promise<Invitation[]> {
    requireAction(actor, 'invitation.manage');
    return this.d.invitations.listPending(actor.scope.organizationId, this.d.clock.now());
  }

  async revoke(actor: Actor, id: string): Promise<void> {
    requireAction(actor, 'invitation.manage');
    const revoked = await this.d.tx.run((tx) => this.d.invitations.revoke(actor.scope.organizationId, id, this.d.clock.now(), tx));
    if (!revoked) throw new AppError('invitationNotFound');
  }

  /** What the invitee sees before choosing a name and password. */
  async preview(token: string): Promise<InvitationPreview> {
    const invitation = await this.d.invitations.findPendingByTokenHash(this.d.secrets.hash(token), this.d.clock.now());
    if (!invitation) throw new AppError('invitationNotFound');
    const organization = await this.d.organizations.findById(invitation.organizationId);
    if (!organization || organization.status === 'deleted') throw new AppError('invitationNotFound');
    return { organizationName: organization.name, email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt };
  }

  /** Creates the invited user and signs them in (the sign-in's own session path); the link works once. */
  async accept(token: string, input: { name: string; password: string }): Promise<IssuedSession & { user: User }> {
    await this.preview(token);
    const passwordHash = await this.d.passwords.hash(input.password);
    const user = await this.d.tx.run(async (tx) => {
      const now = this.d.clock.now();
      const invitation = await this.d.invitations.claim(this.d.secrets.hash(token), now, tx);
      if (!invitation) throw new AppError('invitationNotFound');
      if (await this.d.users.findByEmailIn(invitation.email, tx)) throw new AppError('emailAlreadyRegistered');
      const user = new User({
        id: this.d.ids.uuid(),
        organizationId: invitation.organizationId,
        customerId: invitation.customerId,
        name: input.name,
        email: invitation.email,
        passwordHash,
        role: invitation.role,
        now,
      });
      await this.d.users.add(user, tx);
      // No one is signed in yet, so the change carries no actor for the table's trigger: an entry of its own.
      await this.d.audit.append(
        {
          organizationId: user.organizationId,
          customerId: user.customerId ?? null,
          actorType: 'user',
          userId: user.id,
          actorLabel: user.email,
          credentialType: null,
          resourceType: 'invitation',
          resourceId: invitation.id,
          action: 'accepted',
        },
        tx,
      );
      return user;
    });
    const session = await this.d.sessions.signIn(user);
    return { ...session, user };
  }
}
