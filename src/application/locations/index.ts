/** The locations context's public surface: its use cases, their ports and the ports' tokens. */
export * from './create-location';
export * from './create-probe-key';
export * from './delete-location';
export * from './get-location';
export * from './list-locations';
export * from './list-probe-keys';
export * from './list-probes';
export * from './location-access';
export * from './location-view';
export * from './ports';
export * from './revoke-probe-key';
export * from './update-location';
