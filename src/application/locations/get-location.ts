import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { LocationAccess, LocationRef } from './location-access';
import { withStatus, type LocationView } from './location-view';
import type { LocationStatusReader } from './ports';

/** One location the caller may see, with its live status; locationNotFound otherwise. */
export class GetLocation {
  constructor(
    private readonly access: LocationAccess,
    private readonly status: LocationStatusReader,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: LocationRef): Promise<LocationView> {
    const [view] = await withStatus(this.status, [await this.access.visible(actor, input)], this.clock.now());
    return view!;
  }
}
