import { CLOCK } from '../../application/shared/clock';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../application/shared/transaction';
import { RATE_LIMITER } from '../../application/shared/rate-limiter';
import {
  ACCOUNT_DELETION_REPOSITORY,
  ADMIN_NOTIFIER,
  ADMINISTRATOR_DIRECTORY,
  IDENTITY_EVENTS,
  CUSTOMER_DIRECTORY,
  API_TOKEN_REPOSITORY,
  ORGANIZATION_REPOSITORY,
  PASSWORD_HASHER,
  PLATFORM_SETTINGS_REPOSITORY,
  SECRET_TOKENS,
  SESSION_REPOSITORY,
  TOTP_SERVICE,
  USER_REPOSITORY,
} from '../../application/identity/ports';
import { AuthenticateCaller, CREDENTIAL_RESOLVER, type CredentialResolver } from '../../application/identity/authenticate-caller';
import { SessionIssuer } from '../../application/identity/sessions';
import { SignUp } from '../../application/identity/sign-up';
import { SignIn } from '../../application/identity/sign-in';
import { AUDIT_TRAIL } from '../../application/audit/ports';
import { SignOut } from '../../application/identity/sign-out';
import { VerifyTotp } from '../../application/identity/verify-totp';
import { DisableTwoFactor, EnableTwoFactor, SecondFactorVerifier } from '../../application/identity/two-factor';
import { EnsurePlatformAdmin } from '../../application/identity/ensure-platform-admin';
import { UserAdministration } from '../../application/identity/user-administration';
import { OrganizationSettings, PlatformAdministration } from '../../application/identity/organization-settings';
import { ApiTokens } from '../../application/identity/api-tokens';
import { AccountDeletion } from '../../application/identity/account-deletion';
import { CheckHealth, DATABASE_PROBE, type DatabaseProbe } from '../../application/identity/check-health';
import { CheckReadiness, SCHEMA_PROBE } from '../../application/identity/check-readiness';
import { SqlSchemaProbe } from '../../infrastructure/identity/sql-schema-probe';
import { SqlCustomerDirectory } from '../../infrastructure/identity/sql-customer-directory';
import type { SqlRunner } from '../../infrastructure/persistence/database';
import { SqlOrganizationRepository } from '../../infrastructure/identity/sql-organization.repository';
import { SqlUserRepository } from '../../infrastructure/identity/sql-user.repository';
import { SqlSessionRepository } from '../../infrastructure/identity/sql-session.repository';
import { SqlApiTokenRepository } from '../../infrastructure/identity/sql-api-token.repository';
import { SqlAccountDeletionRepository } from '../../infrastructure/identity/sql-account-deletion.repository';
import { ApiTokenCredentialResolver, SessionCredentialResolver } from '../../infrastructure/identity/credential-resolvers';
import { CallerCache } from '../../infrastructure/identity/caller-cache';
import { SqlAdministratorDirectory } from '../../infrastructure/identity/sql-administrator-directory';
import { OutboxEventPublisher } from '../../infrastructure/outbox/outbox-publisher';
import { identityEventCodec } from '../../domain/identity/events';
import { NotifyAdministrators } from '../../application/identity/notify-administrators';
import { SqlPlatformSettingsRepository } from '../../infrastructure/identity/sql-platform-settings.repository';
import { NodeSecretTokens } from '../../infrastructure/security/node-secret-tokens';
import { Argon2PasswordHasher } from '../../infrastructure/security/argon2-password-hasher';
import { OtpauthTotp } from '../../infrastructure/security/otpauth-totp';
import type { AppConfig } from '../config';
import { ValidateVatId } from '../../application/identity/validate-vat-id';
import { VAT_REGISTRY, VAT_VALIDATION_STORE, type VatRegistry, type VatValidationStore } from '../../application/identity/ports';
import type { RateLimiter } from '../../application/shared/rate-limiter';
import type { TargetPolicy } from '../../application/shared/target-policy';
import { MONITOR_TARGET_POLICY } from '../../application/monitoring/ports';
import { ViesVatRegistry } from '../../infrastructure/identity/vies-vat-registry';
import { SqlVatValidationStore } from '../../infrastructure/identity/sql-vat-validation.store';
import { SharedTlsContext } from '../../infrastructure/protocols/shared/tls-context';
import { checkUserAgent } from '../../domain/checks/user-agent';
import { PRODUCT } from '../product';
import { CALLER_CACHE, CONFIG, DATABASE, POOL_SQL, SQL } from '../tokens';
import { bindings } from './bindings';
import { bindSso } from './identity-sso.bindings';
import { SSO_CONNECTION_REPOSITORY } from '../../application/identity/sso-ports';
import { ssoRouter } from '../../interfaces/http/identity/sso.router';
import { authRouter } from '../../interfaces/http/identity/auth.router';
import { usersRouter } from '../../interfaces/http/identity/users.router';
import { organizationRouter } from '../../interfaces/http/identity/organization.router';
import { tokensRouter } from '../../interfaces/http/identity/tokens.router';
import { accountRouter } from '../../interfaces/http/identity/account.router';
import { platformAdminRouter } from '../../interfaces/http/identity/platform-admin.router';
import { healthRouter } from '../../interfaces/http/identity/health.router';
import { probesRouter } from '../../interfaces/http/identity/probes.router';
import { invitationsRouter } from '../../interfaces/http/identity/invitations.router';
import { bindInvitations } from './invitation.bindings';
import { accountDeletionsJob } from '../../interfaces/jobs/account-deletions.job';
import type { ContextModule } from './context-module';
import { identityHostParts } from './identity-host';
import { sql } from '../../infrastructure/persistence/sql';

/** Identity: organizations, users, sessions, two-step verification, API tokens, account deletion. */
export const identityModule = bindings(({ bind, single }) => {
  const transactions = (c: { get<T>(id: symbol): T }) => c.get<TransactionRunner>(TRANSACTION_RUNNER);
  const cache = (ctx: { get<T>(id: symbol): T }) => ctx.get<CallerCache>(CALLER_CACHE);

  bind(CALLER_CACHE).toConstantValue(new CallerCache());
  single(ORGANIZATION_REPOSITORY, (c) => new SqlOrganizationRepository(c.get(POOL_SQL), cache(c)));
  single(USER_REPOSITORY, (c) => new SqlUserRepository(c.get(POOL_SQL), cache(c)));
  single(SESSION_REPOSITORY, (c) => new SqlSessionRepository(c.get(POOL_SQL), cache(c)));
  single(API_TOKEN_REPOSITORY, (c) => new SqlApiTokenRepository(c.get(POOL_SQL), cache(c)));
  single(ACCOUNT_DELETION_REPOSITORY, (c) => new SqlAccountDeletionRepository(c.get(POOL_SQL)));
  single(PLATFORM_SETTINGS_REPOSITORY, (c) => new SqlPlatformSettingsRepository(c.get(SQL)));
  single(ADMINISTRATOR_DIRECTORY, () => new SqlAdministratorDirectory());
  single(IDENTITY_EVENTS, (c) => new OutboxEventPublisher(c.get(POOL_SQL), identityEventCodec));
  single(ADMIN_NOTIFIER, (c) => new NotifyAdministrators(c.get(ADMINISTRATOR_DIRECTORY), c.get(IDENTITY_EVENTS), c.get(CLOCK)));
  single(CUSTOMER_DIRECTORY, (c) => new SqlCustomerDirectory(c.get(SQL)));
  bind<DatabaseProbe>(DATABASE_PROBE)
    .toDynamicValue((c) => {
      const runner = c.get<SqlRunner>(SQL);
      return { ping: async () => void (await runner.query(sql`SELECT 1`)) };
    })
    .inSingletonScope();
  bind(SECRET_TOKENS).toConstantValue(new NodeSecretTokens());
  bind(PASSWORD_HASHER).toConstantValue(new Argon2PasswordHasher());
  bind(TOTP_SERVICE).toConstantValue(new OtpauthTotp('Monitoring Service'));
  bind<CredentialResolver>(CREDENTIAL_RESOLVER)
    .toDynamicValue((c) => new SessionCredentialResolver(c.get(SQL), cache(c)))
    .inSingletonScope();
  bind<CredentialResolver>(CREDENTIAL_RESOLVER)
    .toDynamicValue((c) => new ApiTokenCredentialResolver(c.get(SQL), cache(c)))
    .inSingletonScope();

  bind(AuthenticateCaller)
    .toDynamicValue((c) => new AuthenticateCaller(c.getAll(CREDENTIAL_RESOLVER), c.get(SECRET_TOKENS), c.get(CLOCK)))
    .inSingletonScope();
  single(
    SessionIssuer,
    (c) =>
      new SessionIssuer(
        c.get(SESSION_REPOSITORY),
        c.get(SECRET_TOKENS),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
        transactions(c),
        c.get(AUDIT_TRAIL),
      ),
  );
  single(
    SecondFactorVerifier,
    (c) => new SecondFactorVerifier(c.get(USER_REPOSITORY), c.get(TOTP_SERVICE), c.get(SECRET_TOKENS), c.get(CLOCK), transactions(c)),
  );
  single(
    SignUp,
    (c) =>
      new SignUp(
        c.get<AppConfig>(CONFIG).signupOpen,
        c.get(ORGANIZATION_REPOSITORY),
        c.get(USER_REPOSITORY),
        c.get(PASSWORD_HASHER),
        c.get(SessionIssuer),
        transactions(c),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
      ),
  );
  single(
    SignIn,
    (c) =>
      new SignIn(
        c.get(USER_REPOSITORY),
        c.get(ORGANIZATION_REPOSITORY),
        c.get(PASSWORD_HASHER),
        c.get(SessionIssuer),
        c.get(RATE_LIMITER),
        transactions(c),
        c.get(AUDIT_TRAIL),
        c.get(SSO_CONNECTION_REPOSITORY),
      ),
  );
  single(SignOut, (c) => new SignOut(c.get(SESSION_REPOSITORY), transactions(c)));
  single(
    VerifyTotp,
    (c) =>
      new VerifyTotp(
        c.get(USER_REPOSITORY),
        c.get(SESSION_REPOSITORY),
        c.get(SessionIssuer),
        c.get(SecondFactorVerifier),
        c.get(SECRET_TOKENS),
        c.get(CLOCK),
        transactions(c),
      ),
  );
  single(
    EnableTwoFactor,
    (c) =>
      new EnableTwoFactor(
        c.get(USER_REPOSITORY),
        c.get(PASSWORD_HASHER),
        c.get(TOTP_SERVICE),
        c.get(SECRET_TOKENS),
        c.get(CLOCK),
        transactions(c),
      ),
  );
  single(DisableTwoFactor, (c) => new DisableTwoFactor(c.get(USER_REPOSITORY), c.get(PASSWORD_HASHER), c.get(CLOCK), transactions(c)));
  single(
    EnsurePlatformAdmin,
    (c) =>
      new EnsurePlatformAdmin(
        c.get(ORGANIZATION_REPOSITORY),
        c.get(USER_REPOSITORY),
        c.get(PASSWORD_HASHER),
        transactions(c),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
      ),
  );
  single(
    UserAdministration,
    (c) =>
      new UserAdministration(
        c.get(USER_REPOSITORY),
        c.get(SESSION_REPOSITORY),
        c.get(CUSTOMER_DIRECTORY),
        c.get(PASSWORD_HASHER),
        transactions(c),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
      ),
  );
  bindInvitations({ single });
  single(OrganizationSettings, (c) => new OrganizationSettings(c.get(ORGANIZATION_REPOSITORY), c.get(CLOCK), transactions(c)));
  single(
    PlatformAdministration,
    (c) => new PlatformAdministration(c.get(ORGANIZATION_REPOSITORY), c.get(PLATFORM_SETTINGS_REPOSITORY), c.get(CLOCK), transactions(c)),
  );
  single(
    ApiTokens,
    (c) =>
      new ApiTokens(
        c.get(API_TOKEN_REPOSITORY),
        c.get(CUSTOMER_DIRECTORY),
        c.get(SECRET_TOKENS),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
        transactions(c),
      ),
  );
  single(
    AccountDeletion,
    (c) =>
      new AccountDeletion(
        c.get(ACCOUNT_DELETION_REPOSITORY),
        c.get(USER_REPOSITORY),
        c.get(SESSION_REPOSITORY),
        c.get(ADMIN_NOTIFIER),
        transactions(c),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
      ),
  );
  single(CheckHealth, (c) => new CheckHealth(c.get(DATABASE_PROBE)));
  single(SCHEMA_PROBE, (c) => new SqlSchemaProbe(c.get<SqlRunner>(SQL), c.get(DATABASE).migrationNames));
  single(CheckReadiness, (c) => new CheckReadiness(c.get(SCHEMA_PROBE)));

  // VAT validation against VIES, reached through the target policy like every outbound call.
  bind(VAT_REGISTRY)
    .toDynamicValue((c) => {
      const config = c.get<AppConfig>(CONFIG);
      return new ViesVatRegistry(
        config.viesUrl,
        c.get<TargetPolicy>(MONITOR_TARGET_POLICY),
        new SharedTlsContext([]),
        checkUserAgent(PRODUCT.name, PRODUCT.version, config.publicBaseUrl),
      );
    })
    .inSingletonScope();
  single(VAT_VALIDATION_STORE, (c) => new SqlVatValidationStore(c.get<SqlRunner>(SQL)));
  single(
    ValidateVatId,
    (c) =>
      new ValidateVatId(
        c.get(OrganizationSettings),
        c.get<VatRegistry>(VAT_REGISTRY),
        c.get<VatValidationStore>(VAT_VALIDATION_STORE),
        c.get<RateLimiter>(RATE_LIMITER),
        c.get(CLOCK),
      ),
  );

  bindSso({ bind, single });
});

export const identityContext: ContextModule = {
  name: 'identity',
  bindings: identityModule,
  routers: [
    authRouter,
    usersRouter,
    organizationRouter,
    tokensRouter,
    accountRouter,
    ssoRouter,
    platformAdminRouter,
    healthRouter,
    probesRouter,
    invitationsRouter,
  ],
  jobs: [accountDeletionsJob],
  ...identityHostParts,
};
