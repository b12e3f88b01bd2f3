import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { SigningKeys } from './ports';

/**
 * Platform admins rotate the EdDSA signing key: new assertions are signed with a new key, while the
 * previous public keys stay in the JWKS, so assertions already issued verify until they expire.
 */
export class RotateSigningKey {
  constructor(
    private readonly keys: SigningKeys,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor): Promise<{ kid: string; previousKid: string | null }> {
    if (!actor.isPlatformAdmin || actor.kind === 'agent') throw new AppError('platformAdminRequired');
    return this.keys.rotate(this.clock.now());
  }
}
