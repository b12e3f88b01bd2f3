import type { Transaction } from '../shared/transaction';
import type { Location } from '../../domain/locations/location';
import type { LocationStatus } from '../../domain/locations/location-status';
import type { ProbeKey } from '../../domain/locations/probe-key';
import { token } from '../shared/token';

/** Who a probe key speaks for: one location (platform or private). */
export interface ProbeIdentity {
  readonly keyId: number;
  readonly locationId: number;
  readonly locationCode: string;
  /** The owning organization of a private location; null for a platform location. */
  readonly organizationId: number | null;
}

/** Probe keys as the probe API sees them: a presented secret answers its location, or null (unknown or revoked). */
export interface ProbeCredentials {
  /** Looks the secret up by its digest; a match also notes the key's last use. */
  authenticate(secret: string, now: Date): Promise<ProbeIdentity | null>;
}
export const PROBE_CREDENTIALS = token<ProbeCredentials>('ProbeCredentials');

/**
 * The location codes an organization's monitors may use: the configured catalogue
 * (MONITOR_LOCATIONS), platform locations created through the admin API, and the organization's own
 * private locations. Another organization's private locations are never in it.
 */
export interface LocationCatalogue {
  codesFor(organizationId: number): Promise<string[]>;
  /** The organization's private locations (checked by its own probes, under their owners' target policy). */
  privateCodesFor(organizationId: number): Promise<string[]>;
}
export const LOCATION_CATALOGUE = token<LocationCatalogue>('LocationCatalogue');

/**
 * Location rows (platform and private; the configured catalogue has none). Codes are unique across
 * the service, whoever owns them: a code is what monitors list.
 */
export interface LocationRepository {
  /** The row with this code, whichever organization owns it; null when there is none. */
  findByCode(code: string): Promise<Location | null>;
  /** Platform rows and the organization's private rows, or every row (null: platform staff's view); by code. */
  list(organizationId: number | null): Promise<Location[]>;
  /** Stores a new row and sets its id; locationCodeTaken when another row has the code. */
  add(location: Location, tx: Transaction): Promise<Location>;
  /** Saves a rename. */
  save(location: Location, tx: Transaction): Promise<void>;
  /**
   * Deletes the row (its keys and probes with it) unless monitors list its code; answers how many
   * monitors do (0: deleted).
   */
  removeUnlessUsed(location: Location, tx: Transaction): Promise<number>;
}
export const LOCATION_REPOSITORY = token<LocationRepository>('LocationRepository');

/** Keys of location rows; revoked keys stay listed (with revokedAt). */
export interface ProbeKeyRepository {
  /** The location's keys, newest first. */
  list(locationId: number): Promise<ProbeKey[]>;
  /** A key of this location by its public id; null when it is not the location's (or not a uuid). */
  find(locationId: number, publicId: string): Promise<ProbeKey | null>;
  add(key: ProbeKey, tx: Transaction): Promise<ProbeKey>;
  /** Saves a revocation. */
  save(key: ProbeKey, tx: Transaction): Promise<void>;
}
export const PROBE_KEY_REPOSITORY = token<ProbeKeyRepository>('ProbeKeyRepository');

/** One probe process as the server last saw it (written by the probe API). */
export interface ProbeStatus {
  readonly instanceId: string;
  readonly name: string;
  readonly version: string;
  readonly firstSeenAt: Date;
  readonly lastSeenAt: Date;
  readonly monitorsHeld: number;
  readonly checksPerSecond: number;
  readonly lagMs: number;
  readonly buffered: number;
  readonly dropped: number;
  /** Its worker lease (check_workers, `probe:<instanceId>:<generation>`) has not lapsed. */
  readonly live: boolean;
}

/** Live status of locations, from check_workers (processes and probes) and the probes table. */
export interface LocationStatusReader {
  /** The status of each code asked (every code has an entry). */
  statusOf(codes: readonly string[], now: Date): Promise<Map<string, LocationStatus>>;
  /** The probes of a location row, most recently seen first. */
  probesOf(locationId: number, now: Date): Promise<ProbeStatus[]>;
}
export const LOCATION_STATUS_READER = token<LocationStatusReader>('LocationStatusReader');

/** The codes of MONITOR_LOCATIONS: platform locations served by this service's own check processes. */
export interface ConfiguredLocations {
  readonly codes: readonly string[];
}
export const CONFIGURED_LOCATIONS = token<ConfiguredLocations>('ConfiguredLocations');
