import type { TransactionRunner } from '../shared/transaction';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { LocationAccess, LocationRef } from './location-access';
import { withStatus, type LocationView } from './location-view';
import type { LocationRepository, LocationStatusReader } from './ports';

/** Renames a location the caller manages; the code never changes (monitors list it). */
export class UpdateLocation {
  constructor(
    private readonly locations: LocationRepository,
    private readonly access: LocationAccess,
    private readonly status: LocationStatusReader,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: LocationRef & { name?: string | undefined }): Promise<LocationView> {
    const location = await this.access.managed(actor, input);
    if (input.name !== undefined) {
      location.rename(input.name);
      await this.tx.run((tx) => this.locations.save(location, tx));
    }
    const [view] = await withStatus(this.status, [location], this.clock.now());
    return view!;
  }
}
