import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import type { Location } from '../../domain/locations/location';
import type { Actor } from '../shared/actor';
import type { LocationAccess, LocationRef } from './location-access';
import type { LocationRepository } from './ports';

/**
 * Removes a location the caller manages, with its keys and probe records (its probes are refused
 * from then on). Refused with locationInUse, data.monitors the count, while monitors list its code:
 * take it out of them first.
 */
export class DeleteLocation {
  constructor(
    private readonly locations: LocationRepository,
    private readonly access: LocationAccess,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: LocationRef): Promise<Location> {
    const location = await this.access.managed(actor, input);
    const monitors = await this.tx.run((tx) => this.locations.removeUnlessUsed(location, tx));
    if (monitors > 0) throw new AppError('locationInUse', { location: location.code, monitors });
    return location;
  }
}
