/** The results context's public surface: its use cases, their ports and the ports' tokens. */
export * from './get-check-history';
export * from './get-uptime-stats';
export * from './get-response-times';
export * from '../../domain/results/response-series';
export * from './maintain-result-storage';
export * from './ports';
