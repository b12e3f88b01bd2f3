/** The checks context's public surface: its use cases, their ports and the ports' tokens. */
export * from './check-deadline';
export * from './checker-registry';
export * from './get-screenshot';
export * from './heartbeat-checker';
export * from './ports';
export * from './run-check';
export * from './run-public-tool';
