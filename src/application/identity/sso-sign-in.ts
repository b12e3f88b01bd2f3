import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import { SSO_LOGIN_LIFETIME_MS, SsoConnection } from '../../domain/identity/sso';
import { User } from '../../domain/identity/user';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { OrganizationRepository, PasswordHasher, SecretTokens, SessionRepository, UserRepository } from './ports';
import type { SessionIssuer } from './sessions';
import type { OidcRelyingParty, SsoClientSettings, SsoConnectionRepository, SsoLoginStore, SsoSecretCipher } from './sso-ports';
import { secretContext } from './sso-settings';

/** Where the provider sends the browser back (the service's public address + this path). */
export const SSO_CALLBACK_PATH = '/api/auth/sso/callback';

/** Sign-in through the organization's OpenID Connect provider: authorization code with PKCE. */
export class SsoSignIn {
  constructor(
    private readonly connections: SsoConnectionRepository,
    private readonly logins: SsoLoginStore,
    private readonly relyingParty: OidcRelyingParty,
    private readonly users: UserRepository,
    private readonly sessions: SessionRepository,
    private readonly issuer: SessionIssuer,
    private readonly passwords: PasswordHasher,
    private readonly secrets: SecretTokens,
    private readonly cipher: SsoSecretCipher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly publicBaseUrl: string,
    private readonly organizations: OrganizationRepository,
    private readonly transactions: TransactionRunner,
  ) {}

  /** The redirect URI to register at the provider. */
  get redirectUri(): string {
    return `${this.publicBaseUrl}${SSO_CALLBACK_PATH}`;
  }

  /** The back-channel logout URI to register at the provider for this organization. */
  backChannelLogoutUri(organizationRef: string): string {
    return `${this.publicBaseUrl}/api/auth/sso/backchannel-logout/${organizationRef}`;
  }

  /** Where a signed-in browser lands: the console. */
  get landingUrl(): string {
    return `${this.publicBaseUrl}/`;
  }

  /** Finds the organization's provider by the person's e-mail domain and answers where to send them. */
  async start(input: { email: string }): Promise<URL> {
    const connection = await this.connections.findByDomain(SsoConnection.domainOf(input.email));
    if (!connection) throw new AppError('ssoNotConfigured');
    const login = {
      state: this.secrets.generate(''),
      nonce: this.secrets.generate(''),
      codeVerifier: this.secrets.generate(''),
      groupClaim: connection.groupClaim,
    };
    const url = await this.relyingParty.authorizationUrl(this.settings(connection), login);
    const pending = {
      organizationId: connection.organizationId,
      nonce: login.nonce,
      codeVerifier: login.codeVerifier,
      expiresAt: new Date(this.clock.now().getTime() + SSO_LOGIN_LIFETIME_MS),
    };
    await this.transactions.run((tx) => this.logins.add(this.secrets.hash(login.state), pending, tx));
    return url;
  }

  /** The provider's redirect back: validated, the user found or created, a session opened. */
  async complete(input: { callbackQuery: string }): Promise<{ token: string; user: User }> {
    const callbackUrl = new URL(`${this.publicBaseUrl}${SSO_CALLBACK_PATH}?${input.callbackQuery}`);
    const state = callbackUrl.searchParams.get('state');
    // Taken (deleted) in a transaction of its own: a state is used once, even when the rest of the sign-in fails.
    const pending = state ? await this.transactions.run((tx) => this.logins.take(this.secrets.hash(state), this.clock.now(), tx)) : null;
    if (!state || !pending) throw new AppError('ssoLoginInvalid');
    const connection = await this.connections.findByOrganization(pending.organizationId);
    if (!connection) throw new AppError('ssoNotConfigured');
    const identity = await this.relyingParty.exchange(this.settings(connection), callbackUrl, {
      state,
      nonce: pending.nonce,
      codeVerifier: pending.codeVerifier,
      groupClaim: connection.groupClaim,
    });
    connection.assertEmailAllowed(identity.email, identity.emailVerified);
    const now = this.clock.now();
    let user = await this.users.findByEmail(identity.email);
    if (user && user.organizationId !== connection.organizationId) throw new AppError('ssoEmailDomainNotAllowed');
    const role = connection.roleForGroups(identity.groups);
    let write: 'add' | 'save' | null = null;
    if (!user) {
      user = new User({
        id: this.ids.uuid(),
        organizationId: connection.organizationId,
        name: identity.name ?? identity.email.split('@')[0]!,
        email: identity.email,
        // No password: the account signs in through the provider (a reset can set one later).
        passwordHash: await this.passwords.hash(this.secrets.generate('')),
        role: role ?? connection.defaultRole,
        now,
      });
      write = 'add';
    } else {
      if (!user.isActive) throw new AppError('accountDeactivated');
      if (role && role !== user.role && user.customerId === null && user.id !== connection.breakGlassUserId) {
        user.changeRole(role, now);
        write = 'save';
      }
    }
    const signedIn = user;
    // The account (new, or its role from the groups) and its link to the provider's subject commit together.
    await this.transactions.run(async (tx) => {
      if (write === 'add') await this.users.add(signedIn, tx);
      if (write === 'save') await this.users.save(signedIn, tx);
      await this.logins.link(connection.organizationId, connection.issuer, identity.subject, signedIn.id, tx);
    });
    const { token } = await this.issuer.signIn(user);
    return { token, user };
  }

  /** The provider says the user is gone: every session of the users linked to the subject ends. */
  async backChannelLogout(input: { organizationRef: string; logoutToken: string }): Promise<void> {
    const organization = await this.organizations.findByRef(input.organizationRef);
    const connection = organization ? await this.connections.findByOrganization(organization.id) : null;
    if (!connection) throw new AppError('ssoNotConfigured');
    const subject = await this.relyingParty.logoutSubject(this.settings(connection), input.logoutToken);
    const users = await this.logins.usersOf(connection.issuer, subject);
    await this.transactions.run(async (tx) => {
      for (const userId of users) await this.sessions.removeAllOfUser(userId, tx);
    });
  }

  private settings(connection: SsoConnection): SsoClientSettings {
    return {
      issuer: connection.issuer,
      clientId: connection.clientId,
      clientSecret: this.cipher.decrypt(connection.clientSecretSealed, secretContext(connection.organizationId)),
      redirectUri: `${this.publicBaseUrl}${SSO_CALLBACK_PATH}`,
    };
  }
}
