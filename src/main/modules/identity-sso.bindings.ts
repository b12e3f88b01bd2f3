import type { ContainerModuleLoadOptions } from 'inversify';
import { CLOCK } from '../../application/shared/clock';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import type { TargetPolicy } from '../../application/shared/target-policy';
import { CREDENTIAL_CIPHER, MONITOR_TARGET_POLICY } from '../../application/monitoring/ports';
import {
  ORGANIZATION_REPOSITORY,
  PASSWORD_HASHER,
  SECRET_TOKENS,
  SESSION_REPOSITORY,
  USER_REPOSITORY,
} from '../../application/identity/ports';
import {
  OIDC_RELYING_PARTY,
  SSO_CONNECTION_REPOSITORY,
  SSO_LOGIN_STORE,
  SSO_SECRET_CIPHER,
  SSO_TARGET_POLICY,
} from '../../application/identity/sso-ports';
import { SessionIssuer } from '../../application/identity/sessions';
import { SsoSettings } from '../../application/identity/sso-settings';
import { SsoSignIn } from '../../application/identity/sso-sign-in';
import { SqlSsoConnectionRepository, SqlSsoLoginStore } from '../../infrastructure/identity/sql-sso.repositories';
import { DiscoveryCache, OpenIdRelyingParty } from '../../infrastructure/identity/openid-relying-party';
import { JwksCache } from '../../infrastructure/identity/jwks-cache';
import { SharedTlsContext } from '../../infrastructure/protocols/shared/tls-context';
import { checkUserAgent } from '../../domain/checks/user-agent';
import { PRODUCT } from '../product';
import type { AppConfig } from '../config';
import { CONFIG, POOL_SQL } from '../tokens';
import type { Ctx, Single } from './bindings';

/**
 * Single sign-on with OpenID Connect. The relying party and the use cases that hold it are built per
 * resolution (cheap), so the policy bound to SSO_TARGET_POLICY is always the one in force.
 */
export function bindSso({ bind, single }: Pick<ContainerModuleLoadOptions, 'bind'> & { single: Single }): void {
  const config = (c: Ctx) => c.get<AppConfig>(CONFIG);
  bind(SSO_TARGET_POLICY).toService(MONITOR_TARGET_POLICY);
  bind(SSO_SECRET_CIPHER).toService(CREDENTIAL_CIPHER);
  single(SSO_CONNECTION_REPOSITORY, (c) => new SqlSsoConnectionRepository(c.get(POOL_SQL)));
  single(SSO_LOGIN_STORE, (c) => new SqlSsoLoginStore(c.get(POOL_SQL)));
  const tls = new SharedTlsContext([]);
  // Shared by every relying party made below: discovery documents and providers' keys outlive a request.
  const discoveries = new DiscoveryCache();
  const keySets = new JwksCache();
  bind(OIDC_RELYING_PARTY)
    .toDynamicValue((ctx) => {
      const c = ctx as unknown as Ctx;
      const userAgent = checkUserAgent(PRODUCT.name, PRODUCT.version, config(c).publicBaseUrl);
      return new OpenIdRelyingParty(c.get<TargetPolicy>(SSO_TARGET_POLICY), tls, userAgent, discoveries, keySets);
    })
    .inTransientScope();
  single(
    SsoSettings,
    (c) =>
      new SsoSettings(
        c.get(SSO_CONNECTION_REPOSITORY),
        c.get(USER_REPOSITORY),
        c.get(SSO_SECRET_CIPHER),
        c.get(TRANSACTION_RUNNER),
        c.get(CLOCK),
      ),
  );
  bind(SsoSignIn)
    .toDynamicValue((ctx) => {
      const c = ctx as unknown as Ctx;
      return new SsoSignIn(
        c.get(SSO_CONNECTION_REPOSITORY),
        c.get(SSO_LOGIN_STORE),
        c.get(OIDC_RELYING_PARTY),
        c.get(USER_REPOSITORY),
        c.get(SESSION_REPOSITORY),
        c.get(SessionIssuer),
        c.get(PASSWORD_HASHER),
        c.get(SECRET_TOKENS),
        c.get(SSO_SECRET_CIPHER),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
        config(c).publicBaseUrl,
        c.get(ORGANIZATION_REPOSITORY),
        c.get(TRANSACTION_RUNNER),
      );
    })
    .inTransientScope();
}
