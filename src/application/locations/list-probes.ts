import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { LocationAccess, LocationRef } from './location-access';
import type { LocationStatusReader, ProbeStatus } from './ports';

/** The probe processes of a location as the server last saw them, most recently seen first (any role of the owner reads). */
export class ListProbes {
  constructor(
    private readonly access: LocationAccess,
    private readonly status: LocationStatusReader,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: LocationRef): Promise<ProbeStatus[]> {
    const location = await this.access.inspected(actor, input);
    return this.status.probesOf(location.id, this.clock.now());
  }
}
