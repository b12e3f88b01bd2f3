import type { ProbeKey } from '../../../domain/locations/probe-key';
import type { IssuedProbeKey } from '../../../application/locations/create-probe-key';
import type { LocationView } from '../../../application/locations/location-view';
import type { ProbeStatus } from '../../../application/locations/ports';

const iso = (date: Date | null) => (date === null ? null : date.toISOString());

export const presentLocation = ({ location, status }: LocationView) => ({
  id: location.code,
  code: location.code,
  name: location.name,
  kind: location.kind,
  configured: location.isConfigured,
  organizationId: location.organizationId,
  status: status.status,
  lastSeenAt: iso(status.lastSeenAt),
  probes: status.probes,
  createdAt: iso(location.createdAt),
});

export const presentProbeKey = (key: ProbeKey) => ({
  id: key.publicId,
  name: key.name,
  prefix: key.secretPrefix,
  status: key.isRevoked ? ('revoked' as const) : ('active' as const),
  createdAt: key.createdAt.toISOString(),
  lastUsedAt: iso(key.lastUsedAt),
  revokedAt: iso(key.revokedAt),
});

export const presentIssuedProbeKey = ({ key, secret }: IssuedProbeKey) => ({ ...presentProbeKey(key), secret });

export const presentProbe = (probe: ProbeStatus) => ({
  instanceId: probe.instanceId,
  name: probe.name,
  version: probe.version,
  firstSeenAt: probe.firstSeenAt.toISOString(),
  lastSeenAt: probe.lastSeenAt.toISOString(),
  monitorsHeld: probe.monitorsHeld,
  checksPerSecond: probe.checksPerSecond,
  lagMs: probe.lagMs,
  buffered: probe.buffered,
  dropped: probe.dropped,
  live: probe.live,
});
