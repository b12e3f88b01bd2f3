import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { LocationAccess, LocationRealm } from './location-access';
import { withStatus, type LocationView } from './location-view';
import type { LocationStatusReader } from './ports';

/** Every location the realm shows, each with its live status (any role reads). */
export class ListLocations {
  constructor(
    private readonly access: LocationAccess,
    private readonly status: LocationStatusReader,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: { realm: LocationRealm }): Promise<LocationView[]> {
    return withStatus(this.status, await this.access.catalogue(actor, input.realm), this.clock.now());
  }
}
