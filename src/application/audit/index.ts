/** The audit context's public surface: its use cases, their ports and the ports' tokens, and the domain types they speak. */
export * from './list-audit-log';
export * from './ports';
export * from './purge-audit-log';
export * from './record-tool-call';
export * from '../../domain/audit/audit-entry';
