/** The scheduling context's public surface: its use cases, their ports and the ports' tokens. */
export * from './check-dispatcher';
export * from './monitor-check-request';
export * from './own-check-worker';
export * from './ports';
export * from './record-outcomes';
export * from './trigger-check';
