import type { AlertSettings } from './alert-settings';
import type { ConnectSettings } from './connect-settings';
import type { CheckMode, MonitoringType, MonitorStatus } from './monitor-kind';
import type { MonitorConfig } from './monitor-config';

/** Everything about a monitor that create and update set (ownership, ids and secrets aside). */
export interface MonitorState extends AlertSettings, ConnectSettings {
  monitoringType: MonitoringType;
  name: string;
  status: MonitorStatus;
  checkInterval: number;
  timeoutSeconds: number;
  locations: string[];
  url: string | null;
  hostname: string | null;
  /** The explicit port; null = the protocol default. */
  port: number | null;
  checkMode: CheckMode | null;
  config: MonitorConfig;
}

export const MONITOR_STATE_FIELDS: ReadonlyArray<keyof MonitorState> = [
  'monitoringType',
  'name',
  'status',
  'checkInterval',
  'timeoutSeconds',
  'locations',
  'url',
  'hostname',
  'port',
  'checkMode',
  'config',
  'connectHost',
  'connectPort',
  'connectTlsInsecure',
  'alertConsecutiveChecks',
  'alertRetryInterval',
  'alertLocationThreshold',
  'alertLocationThresholdCount',
  'alertReminderInterval',
  'sslExpiryReminderInterval',
  'dnsblReminderInterval',
];
