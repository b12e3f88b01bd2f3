import { AppError } from '../shared/app-error';
import { HEARTBEAT_LOCATION } from '../checks/heartbeat';

/** What a monitor lists in `locations`: lower case letters, digits and dashes, 2 to 40 characters, a letter or digit first. */
export const LOCATION_CODE = /^[a-z0-9][a-z0-9-]{1,39}$/;
export const LOCATION_NAME_MAX = 100;

/**
 * `platform`: offered to every organization (a configured MONITOR_LOCATIONS code, or a row the
 * platform admin created). `private`: one organization's, used only by its monitors.
 */
export const LOCATION_KINDS = ['platform', 'private'] as const;
export type LocationKind = (typeof LOCATION_KINDS)[number];

const invalid = (path: string, message: string) =>
  new AppError('validationFailed', { issues: [{ path: [path], message, code: 'custom' }] });

/** A code a new location may take: the format, and not the heartbeat pseudo-location (heartbeats are judged centrally). */
export function assertLocationCode(code: string): string {
  if (!LOCATION_CODE.test(code))
    throw invalid('code', 'Lower case letters, digits and dashes, 2 to 40 characters, a letter or digit first');
  if (code === HEARTBEAT_LOCATION) throw invalid('code', `${HEARTBEAT_LOCATION} is reserved`);
  return code;
}

/** A display name: trimmed, 1 to 100 characters. */
export function assertLocationName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > LOCATION_NAME_MAX) throw invalid('name', `1 to ${LOCATION_NAME_MAX} characters`);
  return trimmed;
}

export interface LocationProps {
  /** The row id; null for a configured location (MONITOR_LOCATIONS), which has no row. */
  id: number | null;
  code: string;
  name: string;
  /** The owner of a private location; null for a platform location. */
  organizationId: number | null;
  createdAt: Date | null;
}

/**
 * A place monitors are checked from. Configured locations come from MONITOR_LOCATIONS and are served
 * by this service's own check processes; the others are rows, served by probes that present one of
 * the location's keys. The code never changes (monitors list it); the name may.
 */
export class Location {
  id: number | null;
  readonly code: string;
  name: string;
  readonly organizationId: number | null;
  readonly createdAt: Date | null;
  /** The optimistic version of the row: a save names the one it read. */
  version = 1;

  constructor(props: LocationProps) {
    this.id = props.id;
    this.code = props.code;
    this.name = props.name;
    this.organizationId = props.organizationId;
    this.createdAt = props.createdAt;
  }

  /** A new platform location (organizationId null) or private location of one organization. */
  static create(props: { code: string; name: string; organizationId: number | null; now: Date }): Location {
    return new Location({
      id: null,
      code: assertLocationCode(props.code),
      name: assertLocationName(props.name),
      organizationId: props.organizationId,
      createdAt: props.now,
    });
  }

  /** A code of MONITOR_LOCATIONS, as the API shows it (its name is its code). */
  static configured(code: string): Location {
    return new Location({ id: null, code, name: code, organizationId: null, createdAt: null });
  }

  get kind(): LocationKind {
    return this.organizationId === null ? 'platform' : 'private';
  }

  /** Set by MONITOR_LOCATIONS: not changed, removed or given keys through the API. */
  get isConfigured(): boolean {
    return this.id === null;
  }

  /** Whether monitors of this organization may list it: platform locations, and the organization's own. */
  isUsableBy(organizationId: number): boolean {
    return this.organizationId === null || this.organizationId === organizationId;
  }

  rename(name: string): void {
    if (this.isConfigured) throw new AppError('locationConfigured', { location: this.code });
    this.name = assertLocationName(name);
  }
}
