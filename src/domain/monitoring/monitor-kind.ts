/** Every monitor family this context owns: websites, and the per-kind monitors under /api/monitors/{type}. */
export const MONITOR_KINDS = ['website', 'dns', 'icmp', 'tcp', 'smtp', 'ssh', 'ftp', 'imap-pop'] as const;
export type MonitorKind = (typeof MONITOR_KINDS)[number];

/** The {type} segments of /api/monitors/{type}. */
export const PER_KIND_TYPES = ['dns', 'icmp', 'tcp', 'smtp', 'ssh', 'ftp', 'imap-pop'] as const;
export type PerKindType = (typeof PER_KIND_TYPES)[number];

export const isMonitorKind = (value: unknown): value is MonitorKind => (MONITOR_KINDS as readonly unknown[]).includes(value);
export const isPerKindType = (value: unknown): value is PerKindType => (PER_KIND_TYPES as readonly unknown[]).includes(value);

/** monitoringType of a website: page checks, passive heartbeats, scripted-browser scenarios, API check chains. */
export const WEBSITE_TYPES = ['http', 'heartbeat', 'scripted_browser', 'api_chain'] as const;
export type WebsiteType = (typeof WEBSITE_TYPES)[number];
export const isWebsiteType = (value: unknown): value is WebsiteType => (WEBSITE_TYPES as readonly unknown[]).includes(value);

/** A monitor's monitoringType: the website type, or the kind itself for per-kind monitors. */
export type MonitoringType = WebsiteType | PerKindType;

/** Kinds that check a protocol by default and can fall back to a bare TCP port check. */
export const CHECK_MODE_KINDS: readonly MonitorKind[] = ['smtp', 'ssh', 'ftp', 'imap-pop'];
export const CHECK_MODES = ['protocol', 'tcp'] as const;
export type CheckMode = (typeof CHECK_MODES)[number];

export const MONITOR_STATUSES = ['active', 'paused'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

export const MANAGEMENT_TYPES = ['managed', 'self_service'] as const;
export type ManagementType = (typeof MANAGEMENT_TYPES)[number];

/** Whether connectHost/connectPort/connectTlsInsecure change how this monitor connects. */
export const connectFieldsTakeEffect = (type: MonitoringType): boolean => type === 'http';

/** Passive monitors wait for pings; nothing is scheduled from locations. */
export const isPassive = (type: MonitoringType): boolean => type === 'heartbeat';
