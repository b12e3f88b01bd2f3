import { CLOCK } from '../../application/shared/clock';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import {
  ACTIVE_HOST_DIRECTORY,
  CUSTOM_DOMAIN_REPOSITORY,
  ORGANIZATION_LOOKS,
  STATUS_PAGE_DIRECTORY,
  TXT_RECORDS,
} from '../../application/custom-domains/ports';
import { ActiveHosts } from '../../application/custom-domains/active-hosts';
import { HostBranding } from '../../application/custom-domains/host-branding';
import { SqlOrganizationLooks } from '../../infrastructure/custom-domains/sql-organization-looks';
import { brandingRouter } from '../../interfaces/http/custom-domains/branding.router';
import { DomainOwnership } from '../../application/custom-domains/domain-ownership';
import { AddCustomDomain } from '../../application/custom-domains/add-custom-domain';
import { ListCustomDomains } from '../../application/custom-domains/list-custom-domains';
import { GetCustomDomain } from '../../application/custom-domains/get-custom-domain';
import { RemoveCustomDomain } from '../../application/custom-domains/remove-custom-domain';
import { VerifyCustomDomain } from '../../application/custom-domains/verify-custom-domain';
import { ActivateCustomDomain } from '../../application/custom-domains/activate-custom-domain';
import { PurgeExpiredCustomDomains } from '../../application/custom-domains/purge-expired-custom-domains';
import { SqlCustomDomainRepository } from '../../infrastructure/custom-domains/sql-custom-domain.repository';
import { SqlActiveHostDirectory } from '../../infrastructure/custom-domains/sql-active-host-directory';
import { DnsTxtRecords } from '../../infrastructure/custom-domains/dns-txt-records';
import { StatusPagesDirectory } from '../../infrastructure/custom-domains/status-pages-directory';
import { STATUS_PAGE_REPOSITORY } from '../../application/status-pages/ports';
import { ResolverFactory } from '../../infrastructure/protocols/dns/resolver-factory';
import type { AppConfig } from '../config';
import { CONFIG, POOL_SQL, SQL } from '../tokens';
import { bindings, type Ctx } from './bindings';
import { customDomainsRouter } from '../../interfaces/http/custom-domains/custom-domains.router';
import { customDomainsPurgeJob } from '../../interfaces/jobs/custom-domains-purge.job';
import type { ContextModule } from './context-module';
import { hostRoutingFront } from './host-routing.front';
import { consoleThemeFront } from './console-theme.front';

/**
 * Custom domains: entries proved by DNS TXT through DNS_SERVERS, and the cached active-host lookup
 * host routing asks; status page hosts name pages of the status pages context.
 */
export const customDomainsModule = bindings(({ single }) => {
  const config = (c: Ctx) => c.get<AppConfig>(CONFIG);

  single(CUSTOM_DOMAIN_REPOSITORY, (c) => new SqlCustomDomainRepository(c.get(POOL_SQL)));
  single(ACTIVE_HOST_DIRECTORY, (c) => new SqlActiveHostDirectory(c.get(SQL)));
  single(TXT_RECORDS, (c) => new DnsTxtRecords(new ResolverFactory(config(c).dnsServers)));
  single(ORGANIZATION_LOOKS, (c) => new SqlOrganizationLooks(c.get(SQL)));
  single(HostBranding, (c) => new HostBranding(c.get(ORGANIZATION_LOOKS)));
  single(STATUS_PAGE_DIRECTORY, (c) => new StatusPagesDirectory(c.get(STATUS_PAGE_REPOSITORY)));

  single(ActiveHosts, (c) => new ActiveHosts(c.get(ACTIVE_HOST_DIRECTORY), c.get(CLOCK)));
  single(DomainOwnership, (c) => new DomainOwnership(c.get(CUSTOM_DOMAIN_REPOSITORY), c.get(TXT_RECORDS)));
  single(
    AddCustomDomain,
    (c) =>
      new AddCustomDomain(
        c.get(CUSTOM_DOMAIN_REPOSITORY),
        c.get(STATUS_PAGE_DIRECTORY),
        c.get(ID_GENERATOR),
        c.get(CLOCK),
        new URL(config(c).publicBaseUrl).hostname.toLowerCase(),
        c.get(TRANSACTION_RUNNER),
      ),
  );
  single(ListCustomDomains, (c) => new ListCustomDomains(c.get(CUSTOM_DOMAIN_REPOSITORY), c.get(CLOCK)));
  single(GetCustomDomain, (c) => new GetCustomDomain(c.get(CUSTOM_DOMAIN_REPOSITORY), c.get(CLOCK)));
  single(
    RemoveCustomDomain,
    (c) => new RemoveCustomDomain(c.get(CUSTOM_DOMAIN_REPOSITORY), c.get(ActiveHosts), c.get(CLOCK), c.get(TRANSACTION_RUNNER)),
  );
  single(
    VerifyCustomDomain,
    (c) =>
      new VerifyCustomDomain(
        c.get(CUSTOM_DOMAIN_REPOSITORY),
        c.get(DomainOwnership),
        c.get(ActiveHosts),
        c.get(CLOCK),
        c.get(TRANSACTION_RUNNER),
      ),
  );
  single(
    ActivateCustomDomain,
    (c) =>
      new ActivateCustomDomain(
        c.get(CUSTOM_DOMAIN_REPOSITORY),
        c.get(DomainOwnership),
        c.get(ActiveHosts),
        c.get(CLOCK),
        c.get(TRANSACTION_RUNNER),
      ),
  );
  single(PurgeExpiredCustomDomains, (c) => new PurgeExpiredCustomDomains(c.get(CUSTOM_DOMAIN_REPOSITORY), c.get(CLOCK)));
});

export const customDomainsContext: ContextModule = {
  name: 'custom-domains',
  bindings: customDomainsModule,
  routers: [customDomainsRouter, brandingRouter],
  front: [hostRoutingFront, consoleThemeFront],
  jobs: [customDomainsPurgeJob],
};
