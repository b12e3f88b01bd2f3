import { DEFAULT_CHECK_CONFIG } from '../../domain/monitoring/check-config';
import { WEBSITE_CONFIG_DEFAULTS, type MonitorConfig } from '../../domain/monitoring/monitor-config';
import { kindOf, type MonitorKindDescriptor, type PerKindType } from '../../domain/monitoring/kinds';
import type { CurrentState } from '../../domain/incidents/current-state';
import type { MonitorListItem } from './ports';

/**
 * The monitor records the API shows, defined once: website records (stored rendered as the read
 * model, monitors.document) and per-kind monitor records. Only the fields named here leave.
 */

/** A heartbeat website's ping path; readers prefix the public base URL (it is configuration, not data). */
export const HEARTBEAT_PATH = '/api/heartbeats/';

const iso = (date: Date | string | null) => (date === null ? null : new Date(date).toISOString());

/** Identity and schedule: the fields every record starts with. */
const head = ({ monitor, customerPublicId }: MonitorListItem) => ({
  id: monitor.id,
  publicId: monitor.publicId,
  key: monitor.key,
  organizationId: monitor.organizationId,
  customerId: monitor.customerId,
  customerPublicId,
  name: monitor.name,
  monitoringType: monitor.monitoringType,
  status: monitor.status,
  managementType: monitor.managementType,
  checkInterval: monitor.checkInterval,
  timeoutSeconds: monitor.timeoutSeconds,
  locations: monitor.locations,
});

/** Alerting, tags and timestamps: the fields every record ends its common part with. */
const tail = ({ monitor, tags }: MonitorListItem) => ({
  alertConsecutiveChecks: monitor.alertConsecutiveChecks,
  alertRetryInterval: monitor.alertRetryInterval,
  alertLocationThreshold: monitor.alertLocationThreshold,
  alertLocationThresholdCount: monitor.alertLocationThresholdCount,
  alertReminderInterval: monitor.alertReminderInterval,
  sslExpiryReminderInterval: monitor.sslExpiryReminderInterval,
  dnsblReminderInterval: monitor.dnsblReminderInterval,
  dependsOn: [...monitor.dependsOn],
  tags: tags.map((t) => ({ id: t.id, publicId: t.publicId, name: t.name, color: t.color })),
  createdAt: iso(monitor.createdAt),
  updatedAt: iso(monitor.updatedAt),
});

/**
 * What the monitor is now: up, down (its automatic incident is open) or unknown with the reason
 * (silentLocations: too few of its locations have a live check process to decide it; noResults;
 * paused). The live part of a record: website documents are stored without it and get it on read.
 */
export const currentStateRecord = (state: CurrentState) => ({
  status: state.status,
  reason: state.reason,
  silentLocations: [...state.silentLocations],
  unknownSince: state.unknownSince === null ? null : state.unknownSince.toISOString(),
  ...(state.dependencyRoot === null ? {} : { dependencyRoot: state.dependencyRoot }),
});

/** A stored website document (compact JSON of websiteRecord) with its current state added. */
export const withCurrentState = (document: string, state: CurrentState): string =>
  `${document.slice(0, -1)},"currentState":${JSON.stringify(currentStateRecord(state))}}`;

/** Each stored setting, or its default when the monitor has none (a stored null stays null). */
function settings<T extends object>(config: object, defaults: T): T {
  const stored = config as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(defaults).map(([key, fallback]) => [key, Object.hasOwn(stored, key) ? stored[key] : fallback]),
  ) as T;
}

/** A website record as stored (the Website schema without currentState), heartbeatUrl as a path: see HEARTBEAT_PATH. */
export function websiteRecord(item: MonitorListItem) {
  const { monitor } = item;
  const heartbeat = monitor.monitoringType === 'heartbeat';
  return {
    ...head(item),
    url: monitor.url,
    ...settings(monitor.config, WEBSITE_CONFIG_DEFAULTS),
    ...settings(monitor.config, DEFAULT_CHECK_CONFIG),
    connectHost: monitor.connectHost,
    connectPort: monitor.connectPort,
    connectTlsInsecure: monitor.connectTlsInsecure,
    heartbeatToken: heartbeat ? monitor.heartbeatToken : null,
    heartbeatUrl: heartbeat && monitor.heartbeatToken !== null ? `${HEARTBEAT_PATH}${monitor.heartbeatToken}` : null,
    lastHeartbeatAt: heartbeat ? iso(monitor.lastHeartbeatAt) : null,
    ...tail(item),
  };
}

/** A per-kind monitor: its target, protocol settings and whether credentials are stored (never the credentials). */
export function monitorRecord(item: MonitorListItem) {
  const { monitor } = item;
  const { config } = monitor;
  const descriptor = kindOf(monitor.kind as PerKindType);
  return {
    ...head(item),
    ...tail(item),
    currentState: currentStateRecord(item.currentState),
    type: monitor.kind,
    hostname: monitor.hostname,
    ...(descriptor.port !== 'none' ? { port: monitor.port, effectivePort: monitor.port ?? descriptor.defaultPort(config) } : {}),
    ...(monitor.checkMode !== null ? { checkMode: monitor.checkMode, hasCredentials: monitor.hasCredentials } : {}),
    ...ownSettings(descriptor, config),
  };
}

/** A kind's own settings as stored (a setting never stored, or null where null means nothing, is left out). */
function ownSettings(descriptor: MonitorKindDescriptor, config: MonitorConfig): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const field of descriptor.fields) {
    const value = config[field.name];
    const nullable = field.input.kind === 'string' && field.input.nullable === true;
    if (nullable ? value !== undefined : value != null) settings[field.name] = value;
  }
  return settings;
}
