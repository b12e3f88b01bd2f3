import { AppError } from '../../domain/shared/app-error';
import { Location } from '../../domain/locations/location';
import { requireAction, type Actor } from '../shared/actor';
import { requirePlatformAdmin } from '../identity/organization-settings';
import { requirePlatformStaff } from '../platform-admin/platform-staff';
import type { ConfiguredLocations, LocationRepository } from './ports';

/**
 * Through which API a caller reaches locations: `organization` (/api/locations: the catalogue, the
 * platform locations and the caller's organization's private ones) or `platform` (/api/admin/locations:
 * platform staff, every location).
 */
export type LocationRealm = 'organization' | 'platform';

export interface LocationRef {
  readonly realm: LocationRealm;
  readonly code: string;
}

/** A location that has a row (not a configured one): what keys and probes hang on. */
export type StoredLocation = Location & { id: number };

const notFound = () => new AppError('locationNotFound');

/**
 * Who sees and who changes which location. Organizations see platform locations and their own
 * private ones (another organization's answers locationNotFound, as a missing one does); their
 * admins change their private ones; the keys and probes of platform locations are not theirs to see.
 * Platform staff see every location; platform admins change platform locations. Configured
 * locations (MONITOR_LOCATIONS) are seen by all and changed by none (locationConfigured).
 */
export class LocationAccess {
  constructor(
    private readonly locations: LocationRepository,
    private readonly configured: ConfiguredLocations,
  ) {}

  /** Every location the realm shows: the configured ones first (in their order), then rows by code. */
  async catalogue(actor: Actor, realm: LocationRealm): Promise<Location[]> {
    if (realm === 'platform') requirePlatformStaff(actor);
    const rows = await this.locations.list(realm === 'platform' ? null : actor.scope.organizationId);
    return [...this.configured.codes.map((code) => Location.configured(code)), ...rows];
  }

  /** A location the caller may see. */
  async visible(actor: Actor, ref: LocationRef): Promise<Location> {
    if (ref.realm === 'platform') requirePlatformStaff(actor);
    const row = await this.locations.findByCode(ref.code);
    if (row) {
      if (ref.realm === 'organization' && !row.isUsableBy(actor.scope.organizationId)) throw notFound();
      return row;
    }
    if (this.configured.codes.includes(ref.code)) return Location.configured(ref.code);
    throw notFound();
  }

  /** A location whose keys and probes the caller may see: private ones for their organization, platform rows for staff. */
  async inspected(actor: Actor, ref: LocationRef): Promise<StoredLocation> {
    const location = await this.visible(actor, ref);
    if (ref.realm === 'organization' && location.kind === 'platform') throw notFound();
    return stored(location);
  }

  /** A location the caller may change (rename, remove, issue and revoke keys). */
  async managed(actor: Actor, ref: LocationRef): Promise<StoredLocation> {
    const location = await this.visible(actor, ref);
    if (ref.realm === 'organization') {
      if (location.kind === 'platform') throw new AppError('platformAdminRequired');
      requireAction(actor, 'location.manage');
    } else {
      requirePlatformAdmin(actor);
      // A private location is its organization's to change; platform staff only look.
      if (location.kind === 'private') throw new AppError('roleForbidden');
    }
    return stored(location);
  }

  /** Whether a code is free for a new location (not a configured one; rows are held unique by the store). */
  isConfiguredCode(code: string): boolean {
    return this.configured.codes.includes(code);
  }
}

function stored(location: Location): StoredLocation {
  if (location.id === null) throw new AppError('locationConfigured', { location: location.code });
  return location as StoredLocation;
}
