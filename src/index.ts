/**
 * The monitoring service as a library: every context's use cases with their ports, tokens and domain
 * types (one entry per context, `src/application/<context>/index.ts`), and a composition that wires
 * them to PostgreSQL without any HTTP framework (Express is never loaded). The Express host is a
 * separate entry point (`monitoring-service/http`).
 *
 * Every module of the application layer is part of its context's entry, so a use case added there
 * is part of the library (test/unit/main/library-exports.test.ts holds it to that). The few type
 * names two contexts share are exported under one meaning and again with a prefix (at the end).
 */
import 'reflect-metadata';

export * from './application/shared';
export * from './application/identity';
export * from './application/tenancy';
export * from './application/agent-access';
export * from './application/monitoring';
export * from './application/locations';
export * from './application/probes';
export * from './application/checks';
export * from './application/scheduling';
export * from './application/results';
export * from './application/incidents';
export * from './application/maintenance';
export * from './application/service-levels';
export * from './application/notifications';
export * from './application/status-pages';
export * from './application/custom-domains';
export * from './application/on-call';
export * from './application/incident-management';
export * from './application/watches';
export * from './application/reports';
export * from './application/data-export';
export * from './application/billing';
export * from './application/platform-admin';
export * from './application/audit';
export * from './application/observability';
export * from './application/live-events';
export * from './application/overview';

// Names two contexts define alike: identity's and tenancy's under their own name, the others prefixed.
export type { MintedToken } from './application/identity';
export type { MintedToken as AgentMintedToken } from './application/agent-access';
export type { Page, RecordRef } from './application/tenancy';
export type { Page as MonitorPage, RecordRef as MonitorRecordRef } from './application/monitoring';

// The hosts' parts: the check worker (the engine's loop), the configuration, and the library's composition.
export { startCheckWorker, type CheckWorker, type CheckWorkerOptions } from './interfaces/jobs/check-worker';
export { loadConfig, ConfigError, type AppConfig } from './main/config';
export { openMonitoringLibrary, type MonitoringLibrary } from './main/library';
