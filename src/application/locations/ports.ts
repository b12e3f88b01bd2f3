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
}
export const LOCATION_CATALOGUE = token<LocationCatalogue>('LocationCatalogue');
