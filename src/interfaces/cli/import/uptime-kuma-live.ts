import { io } from 'socket.io-client';
import { ImportError } from './http';
import type { KumaData, Row } from './uptime-kuma';

/**
 * A running Uptime Kuma, read as its own front end reads it: Socket.IO at the address the user gave,
 * `login` {username, password, token} (its answer {ok} or {tokenRequired} for 2FA, then a `token`
 * must be given), after which it sends `monitorList` (each monitor's toJSON: camelCase fields, its
 * tags and its notificationIDList) and `notificationList` (the notification rows). Maintenance and
 * status pages come with other shapes and are read from the SQLite file only.
 */
export async function fetchKumaLive(url: string, login: { username: string; password: string; token?: string }): Promise<KumaData> {
  const socket = io(url, { transports: ['websocket'], reconnection: false, timeout: 30_000, forceNew: true });
  try {
    return await new Promise<KumaData>((resolve, reject) => {
      let monitors: Record<string, Row> | null = null;
      let notifications: Row[] | null = null;
      const timer = setTimeout(() => reject(new ImportError(`${url}: no monitor list within 30 s`)), 30_000);
      const done = () => {
        if (monitors === null || notifications === null) return;
        clearTimeout(timer);
        resolve(fromLive(Object.values(monitors), notifications));
      };
      socket.on('connect_error', (error: Error) => {
        clearTimeout(timer);
        reject(new ImportError(`${url}: ${error.message}`));
      });
      socket.on('monitorList', (list: Record<string, Row>) => ((monitors = list), done()));
      socket.on('notificationList', (list: Row[]) => ((notifications = list), done()));
      socket.emit('login', { username: login.username, password: login.password, token: login.token ?? '' }, (answer: Row) => {
        if (answer?.ok) return;
        clearTimeout(timer);
        reject(
          new ImportError(
            answer?.tokenRequired
              ? 'login: a 2FA token is required (UPTIME_KUMA_TOKEN)'
              : `login refused: ${answer?.msg ?? 'no reason given'}`,
          ),
        );
      });
    });
  } finally {
    socket.close();
  }
}

/** The front end's shapes as the database's rows, so one mapping serves both (mapKuma). */
export function fromLive(list: readonly Row[], notificationList: readonly Row[]): KumaData {
  const monitors = list.map((m) => ({
    ...m,
    active: m.active === false ? 0 : 1,
    retry_interval: m.retryInterval,
    invert_keyword: m.invertKeyword ? 1 : 0,
    upside_down: m.upsideDown ? 1 : 0,
    ignore_tls: m.ignoreTls ? 1 : 0,
    smtp_security: m.smtpSecurity ?? null,
    accepted_statuscodes_json: JSON.stringify(m.accepted_statuscodes ?? ['200-299']),
    ...protocolColumns(m),
  }));
  const tags = new Map<unknown, Row>();
  const monitorTags: Row[] = [];
  for (const m of list)
    for (const t of (m.tags ?? []) as Row[]) {
      tags.set(t.tag_id, { id: t.tag_id, name: t.name, color: t.color });
      monitorTags.push({ monitor_id: m.id, tag_id: t.tag_id, value: t.value });
    }
  const monitorNotifications = list.flatMap((m) =>
    Object.keys((m.notificationIDList ?? {}) as object).map((id) => ({ monitor_id: m.id, notification_id: Number(id) })),
  );
  return {
    monitors,
    tags: [...tags.values()],
    monitorTags,
    notifications: notificationList.map((n) => ({ ...n, active: n.active === false ? 0 : 1 })),
    monitorNotifications,
    maintenances: [],
    monitorMaintenances: [],
    pages: [],
    groups: [],
    monitorGroups: [],
  };
}

/** The protocol monitors' settings, camelCase in toJSON (the sensitive ones sent to a logged-in user), as their columns. */
const protocolColumns = (m: Row): Row => ({
  database_connection_string: m.databaseConnectionString,
  database_query: m.databaseQuery,
  mqtt_topic: m.mqttTopic,
  mqtt_success_message: m.mqttSuccessMessage,
  mqtt_check_type: m.mqttCheckType,
  mqtt_username: m.mqttUsername,
  mqtt_password: m.mqttPassword,
  grpc_url: m.grpcUrl,
  grpc_service_name: m.grpcServiceName,
  grpc_enable_tls: m.grpcEnableTls ? 1 : 0,
  grpc_method: m.grpcMethod,
  snmp_oid: m.snmpOid,
  snmp_version: m.snmpVersion,
  json_path_operator: m.jsonPathOperator,
  expected_value: m.expectedValue,
  radius_password: m.radiusPassword,
});
