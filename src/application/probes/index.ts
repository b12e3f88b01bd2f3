/** The probes context's public surface: the probe protocol's use cases, ports and wire forms. */
export * from './ports';
export * from './probe-identity';
export * from './probe-schedule-gateway';
export * from './receive-probe-results';
export * from './wire';
export * from './cached-probe-credentials';
export * from './receive-probe-screenshot';
export * from './probe-wakeups';
export * from './location-monitors';
