import type { Location } from '../../domain/locations/location';
import { UNKNOWN_STATUS, type LocationStatus } from '../../domain/locations/location-status';
import type { LocationStatusReader } from './ports';

/** A location with its live status, as the location use cases answer it. */
export interface LocationView {
  readonly location: Location;
  readonly status: LocationStatus;
}

/** The locations with their status, read in one go. */
export async function withStatus(reader: LocationStatusReader, locations: Location[], now: Date): Promise<LocationView[]> {
  const statuses = await reader.statusOf(
    locations.map((l) => l.code),
    now,
  );
  return locations.map((location) => ({ location, status: statuses.get(location.code) ?? UNKNOWN_STATUS }));
}
