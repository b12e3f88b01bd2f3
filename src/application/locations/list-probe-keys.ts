import type { ProbeKey } from '../../domain/locations/probe-key';
import type { Actor } from '../shared/actor';
import type { LocationAccess, LocationRef } from './location-access';
import type { ProbeKeyRepository } from './ports';

/** The keys of a location, revoked ones included, newest first; only their prefixes (any role of the owner reads). */
export class ListProbeKeys {
  constructor(
    private readonly keys: ProbeKeyRepository,
    private readonly access: LocationAccess,
  ) {}

  async execute(actor: Actor, input: LocationRef): Promise<ProbeKey[]> {
    const location = await this.access.inspected(actor, input);
    return this.keys.list(location.id);
  }
}
