import { PER_KIND_TYPES, type PerKindType } from './kinds';

export { isPerKindType, PER_KIND_TYPES, type PerKindType } from './kinds';
export { CHECK_MODES, type CheckMode } from './service-protocols';

/** Every monitor family this context owns: websites, and the per-kind monitors (./kinds) under /api/monitors/{type}. */
export const MONITOR_KINDS = ['website', ...PER_KIND_TYPES] as const;
export type MonitorKind = (typeof MONITOR_KINDS)[number];

/** The kinds in words, for descriptions: `website, dns, …, ftp or imap-pop`. */
export const MONITOR_KINDS_IN_WORDS = `${MONITOR_KINDS.slice(0, -1).join(', ')} or ${MONITOR_KINDS.at(-1)!}`;

export const isMonitorKind = (value: unknown): value is MonitorKind => (MONITOR_KINDS as readonly unknown[]).includes(value);

/** monitoringType of a website: page checks, passive heartbeats, scripted-browser scenarios, API check chains. */
export const WEBSITE_TYPES = ['http', 'heartbeat', 'scripted_browser', 'api_chain'] as const;
export type WebsiteType = (typeof WEBSITE_TYPES)[number];
export const isWebsiteType = (value: unknown): value is WebsiteType => (WEBSITE_TYPES as readonly unknown[]).includes(value);

/** A monitor's monitoringType: the website type, or the kind itself for per-kind monitors. */
export type MonitoringType = WebsiteType | PerKindType;

export const MONITOR_STATUSES = ['active', 'paused'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

export const MANAGEMENT_TYPES = ['managed', 'self_service'] as const;
export type ManagementType = (typeof MANAGEMENT_TYPES)[number];

/** Whether connectHost/connectPort/connectTlsInsecure change how this monitor connects. */
export const connectFieldsTakeEffect = (type: MonitoringType): boolean => type === 'http';

/** Passive monitors wait for pings; nothing is scheduled from locations. */
export const isPassive = (type: MonitoringType): boolean => type === 'heartbeat';
