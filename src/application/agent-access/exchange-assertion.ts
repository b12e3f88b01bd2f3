import { AppError } from '../../domain/shared/app-error';
import { isSubset, parseScopes } from '../../domain/agent-access/scopes';
import type { Clock } from '../shared/clock';
import type { AgentRegistrationRepository, IdentityAssertions } from './ports';
import type { AccessTokenMinter, MintedToken } from './mint-access-token';
import type { ExchangeIdJag } from './exchange-id-jag';
import type { JwtBearerRequest } from './jwt-bearer-request';

export type { JwtBearerRequest } from './jwt-bearer-request';

const invalidGrant = (description: string) => new AppError('invalid_grant', { error_description: description });

/**
 * The jwt-bearer grant (RFC 7523). The service's own identity assertion mints for its registration:
 * tools.public before the claim, the grant after it. An assertion of a trusted issuer is an ID-JAG;
 * any other issuer answers issuer_not_enabled.
 */
export class ExchangeAssertion {
  constructor(
    private readonly registrations: AgentRegistrationRepository,
    private readonly assertions: IdentityAssertions,
    private readonly idJag: ExchangeIdJag,
    private readonly minter: AccessTokenMinter,
    private readonly clock: Clock,
  ) {}

  async execute(request: JwtBearerRequest): Promise<MintedToken> {
    const now = this.clock.now();
    const own = await this.assertions.verify(request.assertion, now);
    if (own.status === 'foreign') return this.idJag.execute(request, now);
    if (own.status === 'invalid') throw invalidGrant('assertion invalid or expired');
    const registration = await this.registrations.findById(own.claims.registrationId);
    if (!registration) throw invalidGrant('registration unknown');
    if (request.clientId !== undefined && request.clientId !== registration.id) {
      throw invalidGrant('client_id does not match the assertion');
    }
    const granted = registration.mintableScopes(now);
    const requested = parseScopes(request.scope);
    if (requested && requested.length > 0 && !isSubset(requested, granted)) throw invalidGrant('scope_exceeds_grant');
    return this.minter.mint(registration, requested && requested.length > 0 ? requested : granted, now);
  }
}
