import { AppError } from '../../../src/domain/shared/app-error';
import { Location } from '../../../src/domain/locations/location';
import { ProbeKey } from '../../../src/domain/locations/probe-key';
import { locationStatusOf, type LocationStatus } from '../../../src/domain/locations/location-status';
import type {
  LocationCatalogue,
  LocationRepository,
  LocationStatusReader,
  ProbeKeyRepository,
  ProbeStatus,
} from '../../../src/application/locations/ports';

const copyLocation = (l: Location) => new Location({ ...l });
const copyKey = (k: ProbeKey) => new ProbeKey({ ...k });

/** Location rows in memory, codes unique like the table's; `monitorsUsing` stands for monitors listing a code. */
export class FakeLocations implements LocationRepository {
  readonly rows: Location[] = [];
  readonly monitorsUsing = new Map<string, number>();
  private nextId = 1;

  async findByCode(code: string): Promise<Location | null> {
    const row = this.rows.find((l) => l.code === code);
    return row ? copyLocation(row) : null;
  }

  async list(organizationId: number | null): Promise<Location[]> {
    return this.rows
      .filter((l) => organizationId === null || l.organizationId === null || l.organizationId === organizationId)
      .sort((a, b) => a.code.localeCompare(b.code))
      .map(copyLocation);
  }

  async add(location: Location): Promise<Location> {
    if (this.rows.some((l) => l.code === location.code)) throw new AppError('locationCodeTaken', { location: location.code });
    location.id = this.nextId++;
    this.rows.push(copyLocation(location));
    return location;
  }

  async save(location: Location): Promise<void> {
    const index = this.rows.findIndex((l) => l.id === location.id);
    this.rows[index] = copyLocation(location);
  }

  async removeUnlessUsed(location: Location): Promise<number> {
    const used = this.monitorsUsing.get(location.code) ?? 0;
    if (used === 0)
      this.rows.splice(
        this.rows.findIndex((l) => l.id === location.id),
        1,
      );
    return used;
  }
}

export class FakeProbeKeys implements ProbeKeyRepository {
  readonly rows: ProbeKey[] = [];
  private nextId = 1;

  async list(locationId: number): Promise<ProbeKey[]> {
    return this.rows
      .filter((k) => k.locationId === locationId)
      .reverse()
      .map(copyKey);
  }

  async find(locationId: number, publicId: string): Promise<ProbeKey | null> {
    const row = this.rows.find((k) => k.locationId === locationId && k.publicId === publicId);
    return row ? copyKey(row) : null;
  }

  async add(key: ProbeKey): Promise<ProbeKey> {
    key.id = this.nextId++;
    this.rows.push(copyKey(key));
    return key;
  }

  async save(key: ProbeKey): Promise<void> {
    const index = this.rows.findIndex((k) => k.id === key.id);
    this.rows[index] = copyKey(key);
  }
}

/** Workers serving codes until a time, and probes by location row id, as the probe API would leave them. */
export class FakeLocationStatus implements LocationStatusReader {
  readonly workers: Array<{ locations: string[]; aliveUntil: Date }> = [];
  readonly probes = new Map<number, Array<Omit<ProbeStatus, 'live'> & { aliveUntil: Date }>>();
  /** Location row ids by code, for the probes' last reports. */
  readonly ids = new Map<string, number>();

  async statusOf(codes: readonly string[], now: Date): Promise<Map<string, LocationStatus>> {
    const result = new Map<string, LocationStatus>();
    for (const code of codes) {
      const probes = this.probes.get(this.ids.get(code) ?? -1) ?? [];
      const lastSeen = probes.map((p) => p.lastSeenAt.getTime()).sort((a, b) => b - a)[0];
      result.set(
        code,
        locationStatusOf({
          servedNow: this.workers.some((w) => w.locations.includes(code) && w.aliveUntil >= now),
          lastSeenAt: lastSeen === undefined ? null : new Date(lastSeen),
          probes: probes.length,
        }),
      );
    }
    return result;
  }

  async probesOf(locationId: number, now: Date): Promise<ProbeStatus[]> {
    return (this.probes.get(locationId) ?? [])
      .map(({ aliveUntil, ...probe }) => ({ ...probe, live: aliveUntil >= now }))
      .sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime());
  }
}

/** The codes monitors of each organization may use: the configured ones and those granted per organization (null: every organization). */
export class FakeLocationCatalogue implements LocationCatalogue {
  readonly granted: Array<{ code: string; organizationId: number | null }> = [];

  constructor(private readonly configured: readonly string[]) {}

  async codesFor(organizationId: number): Promise<string[]> {
    const rows = this.granted.filter((g) => g.organizationId === null || g.organizationId === organizationId).map((g) => g.code);
    return [...this.configured, ...rows];
  }

  async privateCodesFor(organizationId: number): Promise<string[]> {
    return this.granted.filter((g) => g.organizationId === organizationId).map((g) => g.code);
  }
}
