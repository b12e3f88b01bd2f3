import { CLOCK } from '../../application/shared/clock';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER, type TransactionRunner } from '../../application/shared/transaction';
import { RATE_LIMITER } from '../../application/shared/rate-limiter';
import { PLATFORM_SETTINGS_REPOSITORY, SECRET_TOKENS, USER_REPOSITORY } from '../../application/identity/ports';
import { CREDENTIAL_RESOLVER, type CredentialResolver } from '../../application/identity/authenticate-caller';
import {
  AGENT_ACCESS_TOKEN_REPOSITORY,
  AGENT_ENDPOINTS,
  AGENT_REGISTRATION_REPOSITORY,
  CONSENT_REQUEST_REPOSITORY,
  CREDENTIAL_CACHE_INVALIDATOR,
  IDENTITY_ASSERTIONS,
  REPLAY_GUARD,
  SIGNING_KEYS,
  TRUSTED_ISSUERS,
  USER_CODES,
  type AgentEndpoints,
  type CredentialCacheInvalidator,
} from '../../application/agent-access/ports';
import { ClaimCredentialIssuer } from '../../application/agent-access/claim-credentials';
import { ClaimLookup } from '../../application/agent-access/claim-lookup';
import { AccessTokenMinter } from '../../application/agent-access/mint-access-token';
import { RegisterAgent } from '../../application/agent-access/register-agent';
import { ExchangeAssertion } from '../../application/agent-access/exchange-assertion';
import { ExchangeIdJag } from '../../application/agent-access/exchange-id-jag';
import { RequestIdJagApproval } from '../../application/agent-access/request-id-jag-approval';
import { PollClaim } from '../../application/agent-access/poll-claim';
import { IssueAccessToken } from '../../application/agent-access/issue-access-token';
import { RevokeToken } from '../../application/agent-access/revoke-token';
import { RedeemClaimToken } from '../../application/agent-access/redeem-claim-token';
import { GetClaimContext } from '../../application/agent-access/get-claim-context';
import { ConfirmClaim } from '../../application/agent-access/confirm-claim';
import { DecideConsent } from '../../application/agent-access/decide-consent';
import { ListConnections } from '../../application/agent-access/list-connections';
import { DeleteConnection } from '../../application/agent-access/delete-connection';
import { HandleSecurityEvent } from '../../application/agent-access/handle-security-event';
import { RotateSigningKey } from '../../application/agent-access/rotate-signing-key';
import { PurgeStaleAgentRecords } from '../../application/agent-access/purge-stale-agent-records';
import { SqlAgentRegistrationRepository } from '../../infrastructure/agent-access/sql-agent-registration.repository';
import { SqlAgentAccessTokenRepository } from '../../infrastructure/agent-access/sql-agent-access-token.repository';
import { SqlConsentRequestRepository } from '../../infrastructure/agent-access/sql-consent-request.repository';
import { KeyEncryption } from '../../infrastructure/agent-access/key-encryption';
import { PostgresSigningKeys } from '../../infrastructure/agent-access/postgres-signing-keys';
import { JoseIdentityAssertions } from '../../infrastructure/agent-access/jose-identity-assertions';
import { JoseTrustedIssuers } from '../../infrastructure/agent-access/jose-trusted-issuers';
import { SqlReplayGuard } from '../../infrastructure/agent-access/sql-replay-guard';
import { RandomUserCodes } from '../../infrastructure/agent-access/random-user-codes';
import { AgentCredentialResolver } from '../../infrastructure/agent-access/agent-credential-resolver';
import type { CallerCache } from '../../infrastructure/identity/caller-cache';
import type { AppConfig } from '../config';
import { CALLER_CACHE, CONFIG, POOL_SQL, SQL } from '../tokens';
import { bindings } from './bindings';
import { AGENT_ACCESS_ROUTERS, AGENT_AUTHENTICATED_PATHS } from '../../interfaces/http/agent-access';
import { agentAccessPurgeJob } from '../../interfaces/jobs/agent-access-purge.job';
import { defineFront, type ContextModule } from './context-module';

/** Agent access: registrations and claims, tokens, signing keys, trusted issuers, consent, the wsma_ resolver. */
export const agentAccessModule = bindings(({ bind, single }) => {
  const transactions = (c: { get<T>(id: symbol): T }) => c.get<TransactionRunner>(TRANSACTION_RUNNER);
  const config = (c: { get<T>(id: symbol): T }) => c.get<AppConfig>(CONFIG);

  bind<AgentEndpoints>(AGENT_ENDPOINTS)
    .toDynamicValue((c) => {
      const issuer = config(c).publicBaseUrl;
      return { issuer, tokenEndpoint: `${issuer}/oauth2/token`, claimPage: `${issuer}/agent/claim` };
    })
    .inSingletonScope();
  bind<CredentialCacheInvalidator>(CREDENTIAL_CACHE_INVALIDATOR)
    .toDynamicValue((c) => {
      const cache = c.get<CallerCache>(CALLER_CACHE);
      return { invalidate: () => cache.clear() };
    })
    .inSingletonScope();
  single(AGENT_REGISTRATION_REPOSITORY, (c) => new SqlAgentRegistrationRepository(c.get(POOL_SQL)));
  single(AGENT_ACCESS_TOKEN_REPOSITORY, (c) => new SqlAgentAccessTokenRepository(c.get(POOL_SQL), c.get(CREDENTIAL_CACHE_INVALIDATOR)));
  single(CONSENT_REQUEST_REPOSITORY, (c) => new SqlConsentRequestRepository(c.get(POOL_SQL)));
  single(
    SIGNING_KEYS,
    (c) =>
      new PostgresSigningKeys(
        c.get(SQL),
        transactions(c),
        new KeyEncryption({
          configuredKey: config(c).agentKeyEncryptionKey,
          dataDir: config(c).dataDir,
        }),
      ),
  );
  bind(IDENTITY_ASSERTIONS)
    .toDynamicValue((c) => {
      const endpoints = c.get<AgentEndpoints>(AGENT_ENDPOINTS);
      return new JoseIdentityAssertions(endpoints.issuer, endpoints.tokenEndpoint, c.get(SIGNING_KEYS));
    })
    .inSingletonScope();
  bind(TRUSTED_ISSUERS)
    .toDynamicValue((c) => {
      const endpoints = c.get<AgentEndpoints>(AGENT_ENDPOINTS);
      return new JoseTrustedIssuers(config(c).agentTrustedIssuers as never, [endpoints.issuer, endpoints.tokenEndpoint]);
    })
    .inSingletonScope();
  single(REPLAY_GUARD, (c) => new SqlReplayGuard(c.get(SQL)));
  bind(USER_CODES).toConstantValue(new RandomUserCodes());
  bind<CredentialResolver>(CREDENTIAL_RESOLVER)
    .toDynamicValue((c) => new AgentCredentialResolver(c.get(SQL), c.get(CALLER_CACHE)))
    .inSingletonScope();

  single(ClaimCredentialIssuer, (c) => new ClaimCredentialIssuer(c.get(SECRET_TOKENS), c.get(USER_CODES), c.get(AGENT_ENDPOINTS)));
  single(ClaimLookup, (c) => new ClaimLookup(c.get(AGENT_REGISTRATION_REPOSITORY), c.get(SECRET_TOKENS), c.get(USER_CODES)));
  single(
    AccessTokenMinter,
    (c) =>
      new AccessTokenMinter(
        c.get(AGENT_ACCESS_TOKEN_REPOSITORY),
        c.get(IDENTITY_ASSERTIONS),
        c.get(SECRET_TOKENS),
        c.get(ID_GENERATOR),
        transactions(c),
      ),
  );
  single(
    RegisterAgent,
    (c) =>
      new RegisterAgent(
        c.get(AGENT_REGISTRATION_REPOSITORY),
        c.get(IDENTITY_ASSERTIONS),
        c.get(ClaimCredentialIssuer),
        c.get(PLATFORM_SETTINGS_REPOSITORY),
        c.get(RATE_LIMITER),
        c.get(AGENT_ENDPOINTS),
        c.get(CLOCK),
        transactions(c),
      ),
  );
  single(
    RequestIdJagApproval,
    (c) =>
      new RequestIdJagApproval(
        c.get(AGENT_REGISTRATION_REPOSITORY),
        c.get(CONSENT_REQUEST_REPOSITORY),
        c.get(ClaimCredentialIssuer),
        transactions(c),
        c.get(SECRET_TOKENS),
        c.get(ID_GENERATOR),
      ),
  );
  single(
    ExchangeIdJag,
    (c) =>
      new ExchangeIdJag(
        c.get(TRUSTED_ISSUERS),
        c.get(REPLAY_GUARD),
        c.get(AGENT_REGISTRATION_REPOSITORY),
        c.get(USER_REPOSITORY),
        c.get(RequestIdJagApproval),
        c.get(AccessTokenMinter),
      ),
  );
  single(
    ExchangeAssertion,
    (c) =>
      new ExchangeAssertion(
        c.get(AGENT_REGISTRATION_REPOSITORY),
        c.get(IDENTITY_ASSERTIONS),
        c.get(ExchangeIdJag),
        c.get(AccessTokenMinter),
        c.get(CLOCK),
      ),
  );
  single(
    PollClaim,
    (c) =>
      new PollClaim(c.get(AGENT_REGISTRATION_REPOSITORY), c.get(AccessTokenMinter), c.get(SECRET_TOKENS), c.get(CLOCK), transactions(c)),
  );
  single(IssueAccessToken, (c) => new IssueAccessToken(c.get(ExchangeAssertion), c.get(PollClaim), c.get(RATE_LIMITER)));
  single(
    RevokeToken,
    (c) =>
      new RevokeToken(
        c.get(AGENT_ACCESS_TOKEN_REPOSITORY),
        c.get(AGENT_REGISTRATION_REPOSITORY),
        c.get(IDENTITY_ASSERTIONS),
        c.get(SECRET_TOKENS),
        c.get(CREDENTIAL_CACHE_INVALIDATOR),
        c.get(CLOCK),
        transactions(c),
      ),
  );
  single(
    RedeemClaimToken,
    (c) =>
      new RedeemClaimToken(c.get(AGENT_REGISTRATION_REPOSITORY), c.get(ClaimLookup), c.get(USER_REPOSITORY), c.get(CLOCK), transactions(c)),
  );
  single(
    GetClaimContext,
    (c) => new GetClaimContext(c.get(ClaimLookup), c.get(CONSENT_REQUEST_REPOSITORY), c.get(USER_REPOSITORY), c.get(CLOCK)),
  );
  single(
    ConfirmClaim,
    (c) =>
      new ConfirmClaim(c.get(AGENT_REGISTRATION_REPOSITORY), c.get(ClaimLookup), c.get(USER_REPOSITORY), c.get(CLOCK), transactions(c)),
  );
  single(
    DecideConsent,
    (c) =>
      new DecideConsent(
        c.get(CONSENT_REQUEST_REPOSITORY),
        c.get(AGENT_REGISTRATION_REPOSITORY),
        c.get(USER_REPOSITORY),
        transactions(c),
        c.get(CLOCK),
      ),
  );
  single(ListConnections, (c) => new ListConnections(c.get(AGENT_REGISTRATION_REPOSITORY), c.get(AGENT_ACCESS_TOKEN_REPOSITORY)));
  single(
    DeleteConnection,
    (c) =>
      new DeleteConnection(
        c.get(AGENT_REGISTRATION_REPOSITORY),
        c.get(AGENT_ACCESS_TOKEN_REPOSITORY),
        transactions(c),
        c.get(CREDENTIAL_CACHE_INVALIDATOR),
        c.get(CLOCK),
      ),
  );
  single(
    HandleSecurityEvent,
    (c) =>
      new HandleSecurityEvent(
        c.get(TRUSTED_ISSUERS),
        c.get(REPLAY_GUARD),
        c.get(AGENT_REGISTRATION_REPOSITORY),
        c.get(AGENT_ACCESS_TOKEN_REPOSITORY),
        c.get(USER_REPOSITORY),
        transactions(c),
        c.get(CREDENTIAL_CACHE_INVALIDATOR),
        c.get(CLOCK),
      ),
  );
  single(RotateSigningKey, (c) => new RotateSigningKey(c.get(SIGNING_KEYS), c.get(CLOCK)));
  single(
    PurgeStaleAgentRecords,
    (c) => new PurgeStaleAgentRecords(c.get(AGENT_REGISTRATION_REPOSITORY), c.get(AGENT_ACCESS_TOKEN_REPOSITORY), c.get(CLOCK)),
  );
});

export const agentAccessContext: ContextModule = {
  name: 'agent-access',
  bindings: agentAccessModule,
  routers: [...AGENT_ACCESS_ROUTERS],
  // Before the parsers: the canonical host, the agent auth switch, and the security event intake's body.
  // (Loaded when the HTTP host is built: the guard reads its body with Express's parser.)
  front: [
    defineFront({
      needs: { agentEndpoints: AGENT_ENDPOINTS, platformSettingsRepository: PLATFORM_SETTINGS_REPOSITORY },
      build: async (use) => ({ guards: (await import('../../interfaces/http/agent-access/guard.js')).agentAccessGuard(use) }),
    }),
  ],
  // The claim of an agent identity is a caller's request outside /api.
  admits: [{ paths: AGENT_AUTHENTICATED_PATHS, gates: true }],
  jobs: [agentAccessPurgeJob],
};
