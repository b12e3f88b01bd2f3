import type { MonitorListItem, MonitorView } from '../../application/monitoring/ports';
import { currentStateOf, type CurrentState } from '../../domain/incidents/current-state';
import type { SqlRow } from '../persistence/database';

/** ISO 8601 UTC with milliseconds, as text: the same value whichever driver reads it (the ORM's keeps timestamps as text). */
export const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * What a monitor `m` is now, from its alert state (the rules' open incident, the liveness job's
 * silent locations): one primary-key lookup, null before anything was judged.
 */
export const ALERT_STATE_COLUMN = `(SELECT json_build_object('incidentOpen', s.open_incident_id IS NOT NULL,
    'reported', s.locations <> '{}'::jsonb, 'silentLocations', s.silent_locations,
    'undecidedSince', ${isoText('s.undecided_since')},
    'dependencyRoot', (SELECT r.public_id FROM monitors r WHERE r.id = s.dependency_root_id))
    FROM monitor_alert_states s WHERE s.monitor_id = m.id) AS alert_state`;

/** The current state of a row that selected `m.status` and ALERT_STATE_COLUMN. */
export const currentStateOfRow = (row: MonitorRow): CurrentState => {
  const stored = row.alert_state as {
    incidentOpen: boolean;
    reported: boolean;
    silentLocations: string[];
    undecidedSince: string | null;
    dependencyRoot?: string | null;
  } | null;
  return currentStateOf({
    paused: row.status === 'paused',
    reported: stored?.reported ?? false,
    incidentOpen: stored?.incidentOpen ?? false,
    silentLocations: stored?.silentLocations ?? [],
    undecidedSince: stored?.undecidedSince ? new Date(stored.undecidedSince) : null,
    dependencyRoot: stored?.dependencyRoot ?? null,
  });
};

/** The tags of monitor `m` as a JSON array, in name order (id, publicId, name, color). */
export const MONITOR_TAGS_COLUMN = `COALESCE((SELECT json_agg(json_build_object('id', t.id, 'publicId', t.public_id, 'name', t.name, 'color', t.color) ORDER BY lower(t.name), t.id)
            FROM monitor_tags mt JOIN tags t ON t.id = mt.tag_id WHERE mt.monitor_id = m.id), '[]') AS tags`;

/** What the records of monitors `m` (joined to their customers `c`) are built from: no ciphertext, whether credentials are set. */
export const MONITOR_COLUMNS = `m.id, m.public_id, m.organization_id, m.customer_id, m.kind, m.monitoring_type, m.name, m.status,
  m.management_type, m.key, m.check_interval, m.timeout_seconds, m.locations, m.url, m.hostname, m.port, m.check_mode,
  m.connect_host, m.connect_port, m.connect_tls_insecure, m.config, m.credentials_ciphertext IS NOT NULL AS has_credentials,
  m.heartbeat_token, ${isoText('m.last_heartbeat_at')} AS last_heartbeat_at, m.alert_consecutive_checks, m.alert_retry_interval,
  m.alert_location_threshold::text AS alert_location_threshold, m.alert_location_threshold_count, m.alert_reminder_interval,
  m.ssl_expiry_reminder_interval, m.dnsbl_reminder_interval, ${isoText('m.created_at')} AS created_at,
  ${isoText('m.updated_at')} AS updated_at, c.public_id AS customer_public_id,
  ${MONITOR_TAGS_COLUMN},
  COALESCE((SELECT json_agg(d.public_id ORDER BY array_position(m.depends_on, d.id)) FROM monitors d WHERE d.id = ANY(m.depends_on)), '[]') AS depends_on,
  ${ALERT_STATE_COLUMN}`;

export type MonitorRow = SqlRow;

const date = (value: string | null) => (value === null ? null : new Date(value));

export const toView = (row: MonitorRow): MonitorView => ({
  id: Number(row.id),
  publicId: row.public_id,
  organizationId: row.organization_id,
  customerId: row.customer_id,
  kind: row.kind,
  monitoringType: row.monitoring_type,
  name: row.name,
  status: row.status,
  managementType: row.management_type,
  key: row.key,
  checkInterval: row.check_interval,
  timeoutSeconds: row.timeout_seconds,
  locations: row.locations,
  url: row.url,
  hostname: row.hostname,
  port: row.port,
  checkMode: row.check_mode,
  connectHost: row.connect_host,
  connectPort: row.connect_port,
  connectTlsInsecure: row.connect_tls_insecure,
  config: row.config,
  hasCredentials: row.has_credentials,
  heartbeatToken: row.heartbeat_token,
  lastHeartbeatAt: date(row.last_heartbeat_at),
  alertConsecutiveChecks: row.alert_consecutive_checks,
  alertRetryInterval: row.alert_retry_interval,
  alertLocationThreshold: row.alert_location_threshold,
  alertLocationThresholdCount: row.alert_location_threshold_count,
  alertReminderInterval: row.alert_reminder_interval,
  sslExpiryReminderInterval: row.ssl_expiry_reminder_interval,
  dnsblReminderInterval: row.dnsbl_reminder_interval,
  dependsOn: row.depends_on ?? [],
  createdAt: date(row.created_at)!,
  updatedAt: date(row.updated_at)!,
});

export const toItem = (row: MonitorRow): MonitorListItem => ({
  monitor: toView(row),
  customerPublicId: row.customer_public_id,
  tags: row.tags,
  currentState: currentStateOfRow(row),
});
