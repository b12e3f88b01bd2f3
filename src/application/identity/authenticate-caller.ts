import { AppError } from '../../domain/shared/app-error';
import type { Organization } from '../../domain/identity/organization';
import type { User } from '../../domain/identity/user';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { SecretTokens } from './ports';
import { token } from '../shared/token';

/** Everything the gates and get-session need to know about a caller, resolved in one lookup. */
export interface Caller {
  readonly actor: Actor;
  readonly user: User;
  readonly organization: Organization;
  /** When the credential stops working (null: never). */
  readonly expiresAt: Date | null;
}

/**
 * Resolves one kind of credential, chosen by its prefix (`wsm_`, `wsma_`; null for session tokens),
 * from the digest of the secret. Answers null for unknown, expired or revoked credentials.
 */
export interface CredentialResolver {
  readonly prefix: string | null;
  resolve(tokenHash: string, now: Date): Promise<Caller | null>;
}
export const CREDENTIAL_RESOLVER = token<CredentialResolver>('CredentialResolver');

export class AuthenticateCaller {
  private readonly byPrefix: CredentialResolver[];
  private readonly sessionResolver: CredentialResolver | undefined;

  constructor(
    resolvers: CredentialResolver[],
    private readonly secrets: SecretTokens,
    private readonly clock: Clock,
  ) {
    this.byPrefix = resolvers.filter((r) => r.prefix !== null).sort((a, b) => b.prefix!.length - a.prefix!.length);
    this.sessionResolver = resolvers.find((r) => r.prefix === null);
  }

  /** Throws `unauthorized` for a missing, unknown, expired or revoked credential. */
  async execute(token: string | undefined): Promise<Caller> {
    if (!token || token.length > 512) throw new AppError('unauthorized');
    const resolver = this.byPrefix.find((r) => token.startsWith(r.prefix!)) ?? this.sessionResolver;
    const caller = resolver ? await resolver.resolve(this.secrets.hash(token), this.clock.now()) : null;
    if (!caller) throw new AppError('unauthorized');
    return caller;
  }
}
