import type { MonitorKind, ManagementType, MonitoringType, MonitorStatus, CheckMode } from './monitor-kind';
import { isPassive } from './monitor-kind';
import type { MonitorConfig } from './monitor-config';
import { MONITOR_STATE_FIELDS, type MonitorState } from './monitor-state';

/**
 * A monitor of any kind, owned by a customer. Target columns (url, hostname, port, connect*) and
 * scheduling fields are explicit for the check engine; kind-specific settings live in `config`;
 * credentials only as ciphertext.
 */
export class Monitor implements MonitorState {
  id!: number;
  publicId: string;
  organizationId: number;
  customerId: number;
  kind: MonitorKind;
  managementType: ManagementType;
  /** A stable key chosen by the client (monitoring as code), unique in the organization; null when unset. */
  key: string | null;
  monitoringType!: MonitoringType;
  name!: string;
  status!: MonitorStatus;
  checkInterval!: number;
  timeoutSeconds!: number;
  locations!: string[];
  url!: string | null;
  hostname!: string | null;
  port!: number | null;
  checkMode!: CheckMode | null;
  config!: MonitorConfig;
  connectHost!: string | null;
  connectPort!: number | null;
  connectTlsInsecure!: boolean;
  alertConsecutiveChecks!: number;
  alertRetryInterval!: number;
  alertLocationThreshold!: string;
  alertLocationThresholdCount!: number;
  alertReminderInterval!: number;
  sslExpiryReminderInterval!: number | null;
  dnsblReminderInterval!: number | null;
  heartbeatToken: string | null = null;
  lastHeartbeatAt: Date | null = null;
  credentialsCiphertext: string | null = null;
  /** Ids of the monitors it depends on, in the order named (see dependencies.ts, which decides them). */
  dependsOnIds: number[] = [];
  createdByUserId: string | null;
  createdAt: Date;
  updatedAt: Date;
  version = 1;

  constructor(props: {
    publicId: string;
    organizationId: number;
    customerId: number;
    kind: MonitorKind;
    managementType: ManagementType;
    key?: string | null;
    state: MonitorState;
    createdByUserId: string | null;
    now: Date;
  }) {
    this.publicId = props.publicId;
    this.organizationId = props.organizationId;
    this.customerId = props.customerId;
    this.kind = props.kind;
    this.managementType = props.managementType;
    this.key = props.key ?? null;
    this.createdByUserId = props.createdByUserId;
    this.createdAt = props.now;
    this.updatedAt = props.now;
    this.apply(props.state, props.now);
  }

  /** A copy of the editable state, for planning a change. */
  state(): MonitorState {
    const copy = {} as Record<string, unknown>;
    for (const field of MONITOR_STATE_FIELDS) copy[field] = structuredCloneish(this[field]);
    return copy as unknown as MonitorState;
  }

  /** Takes a validated state (see planMonitor). */
  apply(state: MonitorState, now: Date): void {
    Object.assign(this, Object.fromEntries(MONITOR_STATE_FIELDS.map((f) => [f, state[f]])));
    this.updatedAt = now;
  }

  /** Whether the check engine schedules it: active and not passive (heartbeats wait for pings). */
  get isScheduled(): boolean {
    return this.status === 'active' && !isPassive(this.monitoringType);
  }

  changeManagementType(managementType: ManagementType, now: Date): void {
    this.managementType = managementType;
    this.updatedAt = now;
  }

  changeKey(key: string | null, now: Date): void {
    this.key = key;
    this.updatedAt = now;
  }

  setCredentials(ciphertext: string | null, now: Date): void {
    this.credentialsCiphertext = ciphertext;
    this.updatedAt = now;
  }

  /** Takes dependencies decided by decideDependencies. */
  dependOn(ids: readonly number[], now: Date): void {
    if (ids.length === this.dependsOnIds.length && ids.every((id, k) => id === this.dependsOnIds[k])) return;
    this.dependsOnIds = [...ids];
    this.updatedAt = now;
  }

  issueHeartbeatToken(token: string): void {
    this.heartbeatToken ??= token;
  }
}

const structuredCloneish = <T>(value: T): T => (value !== null && typeof value === 'object' ? JSON.parse(JSON.stringify(value)) : value);
