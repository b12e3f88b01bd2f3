/** The results context's public surface: its use cases, their ports and the ports' tokens. */
export * from './get-check-history';
export * from './get-uptime-stats';
export * from './maintain-result-storage';
export * from './ports';
