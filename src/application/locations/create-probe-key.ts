import type { TransactionRunner } from '../shared/transaction';
import { ProbeKey, PROBE_KEY_PREFIX } from '../../domain/locations/probe-key';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { SecretTokens } from '../identity/ports';
import type { LocationAccess, LocationRef } from './location-access';
import type { ProbeKeyRepository } from './ports';

export interface IssuedProbeKey {
  readonly key: ProbeKey;
  /** `pk_` and 32 random bytes (base64url): shown this once, never again. */
  readonly secret: string;
}

/** Issues a new key for a location the caller manages; the location's other keys stay live (rolling replacement). */
export class CreateProbeKey {
  constructor(
    private readonly keys: ProbeKeyRepository,
    private readonly access: LocationAccess,
    private readonly secrets: SecretTokens,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: LocationRef & { name: string }): Promise<IssuedProbeKey> {
    const location = await this.access.managed(actor, input);
    const secret = this.secrets.generate(PROBE_KEY_PREFIX);
    const key = ProbeKey.issue({
      publicId: this.ids.uuid(),
      locationId: location.id,
      name: input.name,
      secret,
      secretDigest: this.secrets.hash(secret),
      now: this.clock.now(),
    });
    return { key: await this.tx.run((tx) => this.keys.add(key, tx)), secret };
  }
}
