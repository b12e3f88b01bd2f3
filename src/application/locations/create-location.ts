import type { TransactionRunner } from '../shared/transaction';
import { AppError } from '../../domain/shared/app-error';
import { Location } from '../../domain/locations/location';
import { UNKNOWN_STATUS } from '../../domain/locations/location-status';
import { requireAction, type Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import { requirePlatformAdmin } from '../identity/organization-settings';
import type { LocationAccess, LocationRealm } from './location-access';
import type { LocationView } from './location-view';
import type { LocationRepository } from './ports';

export interface CreateLocationInput {
  readonly realm: LocationRealm;
  readonly code: string;
  readonly name: string;
}

/**
 * A private location of the caller's organization (its admins), or a platform location (platform
 * admins). The code is unique across the service, configured codes included (locationCodeTaken);
 * the location is `unknown` until a probe with one of its keys reports.
 */
export class CreateLocation {
  constructor(
    private readonly locations: LocationRepository,
    private readonly access: LocationAccess,
    private readonly clock: Clock,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: CreateLocationInput): Promise<LocationView> {
    if (input.realm === 'platform') requirePlatformAdmin(actor);
    else requireAction(actor, 'location.manage');
    const location = Location.create({
      code: input.code,
      name: input.name,
      organizationId: input.realm === 'platform' ? null : actor.scope.organizationId,
      now: this.clock.now(),
    });
    if (this.access.isConfiguredCode(location.code)) throw new AppError('locationCodeTaken', { location: location.code });
    return { location: await this.tx.run((tx) => this.locations.add(location, tx)), status: UNKNOWN_STATUS };
  }
}
