import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { ProbeKey } from '../../domain/locations/probe-key';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { LocationAccess, LocationRef } from './location-access';
import type { ProbeKeyRepository } from './ports';

/**
 * Revokes a key of a location the caller manages: probes presenting it are refused from the next
 * request on. Final; revoking a revoked key answers it as it is.
 */
export class RevokeProbeKey {
  constructor(
    private readonly keys: ProbeKeyRepository,
    private readonly access: LocationAccess,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: LocationRef & { keyId: string }): Promise<ProbeKey> {
    const location = await this.access.managed(actor, input);
    const key = await this.keys.find(location.id, input.keyId);
    if (!key) throw new AppError('probeKeyNotFound');
    if (!key.isRevoked) {
      key.revoke(this.clock.now());
      await this.tx.run((tx) => this.keys.save(key, tx));
    }
    return key;
  }
}
