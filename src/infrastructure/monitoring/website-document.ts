import { DEFAULT_CHECK_CONFIG } from '../../domain/monitoring/check-config';
import { WEBSITE_CONFIG_DEFAULTS } from '../../domain/monitoring/monitor-config';

/** Stored documents carry the ping path; reads prefix the configured public base URL (withBaseUrl). */
const HEARTBEAT_PATH = '/api/heartbeats/';
/** How json_build_object writes that field (it separates keys and values with " : "). */
const HEARTBEAT_MARK = `"heartbeatUrl" : "${HEARTBEAT_PATH}`;

const literal = (value: unknown) => `'${JSON.stringify(value).replace(/'/g, "''")}'::jsonb`;
const setting = (key: string, fallback: unknown) => `COALESCE(m.config->'${key}', ${literal(fallback)})`;
const timestamp = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** [field, SQL] in the order of the Website schema; config fields fall back to the domain defaults. */
const FIELDS: Array<[string, string]> = [
  ['id', 'm.id'], ['publicId', 'm.public_id'], ['organizationId', 'm.organization_id'], ['customerId', 'm.customer_id'],
  ['customerPublicId', 'c.public_id'], ['name', 'm.name'], ['monitoringType', 'm.monitoring_type'], ['status', 'm.status'],
  ['managementType', 'm.management_type'], ['checkInterval', 'm.check_interval'], ['timeoutSeconds', 'm.timeout_seconds'],
  ['locations', 'to_json(m.locations)'], ['url', 'm.url'],
  ...Object.entries(WEBSITE_CONFIG_DEFAULTS).map(([key, fallback]): [string, string] => [key, setting(key, fallback)]),
  ...Object.entries(DEFAULT_CHECK_CONFIG).map(([key, fallback]): [string, string] => [key, setting(key, fallback)]),
  ['connectHost', 'm.connect_host'], ['connectPort', 'm.connect_port'], ['connectTlsInsecure', 'm.connect_tls_insecure'],
  ['heartbeatToken', `CASE WHEN m.monitoring_type = 'heartbeat' THEN m.heartbeat_token END`],
  ['heartbeatUrl', `CASE WHEN m.monitoring_type = 'heartbeat' AND m.heartbeat_token IS NOT NULL THEN '${HEARTBEAT_PATH}' || m.heartbeat_token END`],
  ['lastHeartbeatAt', `CASE WHEN m.monitoring_type = 'heartbeat' THEN ${timestamp('m.last_heartbeat_at')} END`],
  ['alertConsecutiveChecks', 'm.alert_consecutive_checks'], ['alertLocationThreshold', 'm.alert_location_threshold::text'],
  ['alertLocationThresholdCount', 'm.alert_location_threshold_count'], ['alertReminderInterval', 'm.alert_reminder_interval'],
  ['sslExpiryReminderInterval', 'm.ssl_expiry_reminder_interval'], ['dnsblReminderInterval', 'm.dnsbl_reminder_interval'],
  ['tags', `COALESCE((SELECT json_agg(json_build_object('id', t.id, 'publicId', t.public_id, 'name', t.name, 'color', t.color) ORDER BY lower(t.name), t.id)
            FROM monitor_tags mt JOIN tags t ON t.id = mt.tag_id WHERE mt.monitor_id = m.id), '[]'::json)`],
  ['createdAt', timestamp('m.created_at')], ['updatedAt', timestamp('m.updated_at')],
];

/**
 * The website record as the API shows it, rendered by PostgreSQL for rows `m` (monitors) and `c`
 * (customers): the one definition of the website response (lists, single reads, create and update
 * answers all use it). Writes store it in monitors.document (a read model; triggers mark it stale
 * on any other change), so a page of 50 is 50 stored texts joined, not 2,400 fields rendered.
 */
export const WEBSITE_DOCUMENT = (() => {
  if (FIELDS.length > 50) throw new Error('json_build_object takes at most 100 arguments');
  return `json_build_object(${FIELDS.map(([k, v]) => `'${k}', ${v}`).join(', ')})::text`;
})();

/** The stored document, or a fresh rendering when it is stale. */
export const CURRENT_DOCUMENT = `COALESCE(m.document, ${WEBSITE_DOCUMENT})`;

/** SQL turning the ping paths of documents in `expression` into absolute URLs; binds the base URL. */
export const withBaseUrl = (expression: string) => `replace(${expression}, '${HEARTBEAT_MARK}', ?)`;

/** The parameter for withBaseUrl. */
export const baseUrlParam = (publicBaseUrl: string) => `"heartbeatUrl" : "${JSON.stringify(publicBaseUrl).slice(1, -1)}${HEARTBEAT_PATH}`;

/** Renders the stale documents of the websites listed (ids joined by commas), inside the caller's transaction. */
export const REFRESH_DOCUMENTS = `UPDATE monitors m SET document = ${WEBSITE_DOCUMENT} FROM customers c
  WHERE c.id = m.customer_id AND m.id = ANY(string_to_array(?, ',')::bigint[]) AND m.kind = 'website' AND m.document IS NULL`;

export const WEBSITE_FIELD_NAMES = FIELDS.map(([name]) => name);
