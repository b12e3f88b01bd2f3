import { AppError } from '../../domain/shared/app-error';
import { CustomDomain, type CustomDomainKind } from '../../domain/custom-domains/custom-domain';
import { isPlatformHostname, normalizeClaimHostname } from '../../domain/custom-domains/hostname';
import { normalizeDomainName } from '../../domain/tenancy/domain-name';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { TransactionRunner } from '../shared/transaction';
import { requireDomainManager } from './custom-domain-access';
import type { CustomDomainRepository, StatusPageDirectory } from './ports';

export interface AddCustomDomainInput {
  /** ASCII (IDNs converted to punycode at the edge); normalized here. */
  hostname: string;
  kind: CustomDomainKind;
  /** Required for `statusPage`, refused for `whiteLabel`. */
  statusPageId?: string | null | undefined;
}

/**
 * Adds a pending entry with a fresh verification token. A name that is not a public DNS name is
 * invalidHostname, the platform host or a name under it hostnameReserved, and a hostname another
 * organization holds (verified or active) domainAlreadyClaimed. Pending entries of others never block.
 */
export class AddCustomDomain {
  constructor(
    private readonly domains: CustomDomainRepository,
    private readonly statusPages: StatusPageDirectory,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    /** PUBLIC_BASE_URL's hostname, lower case. */
    private readonly platformHost: string,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: AddCustomDomainInput): Promise<CustomDomain> {
    requireDomainManager(actor, input.kind);
    // The platform's names first: a platform on a private-use name (`.internal`) still answers hostnameReserved for them.
    const name = normalizeDomainName(input.hostname);
    if (name !== null && isPlatformHostname(name, this.platformHost)) throw new AppError('hostnameReserved', { hostname: name });
    const hostname = normalizeClaimHostname(input.hostname);
    if (hostname === null) throw new AppError('invalidHostname', { field: 'hostname', hostname: input.hostname });
    const page = await this.pageOf(actor, input);
    if (await this.domains.claimedElsewhere(hostname, actor.scope.organizationId)) throw new AppError('domainAlreadyClaimed', { hostname });
    const now = this.clock.now();
    const domain = CustomDomain.claim({
      publicId: this.ids.uuid(),
      organizationId: actor.scope.organizationId,
      customerId: page?.customerId ?? null,
      hostname,
      kind: input.kind,
      statusPageId: page?.id ?? null,
      verificationToken: `mv-${this.ids.uuid().replace(/-/g, '')}`,
      now,
    });
    return this.tx.run((tx) => this.domains.add(domain, now, tx));
  }

  /** The status page a `statusPage` host serves, in the caller's scope; white-label hosts name none. */
  private async pageOf(actor: Actor, input: AddCustomDomainInput) {
    if (input.kind === 'whiteLabel') {
      if (input.statusPageId != null)
        throw new AppError('validationFailed', {
          issues: [{ path: ['statusPageId'], message: 'Only for kind statusPage', code: 'custom' }],
        });
      return null;
    }
    if (input.statusPageId == null)
      throw new AppError('validationFailed', {
        issues: [{ path: ['statusPageId'], message: 'Required for kind statusPage', code: 'custom' }],
      });
    const page = await this.statusPages.find(actor.scope, input.statusPageId);
    if (!page) throw new AppError('statusPageNotFound');
    return page;
  }
}
