/** The incidents context's public surface: its use cases, their ports and the ports' tokens. */
export * from './acknowledge-incident';
export * from './alert-actions';
export * from './batch-dependencies';
export * from './apply-routed-incident-change';
export * from './cached-live-locations';
export * from './create-manual-incident';
export * from './delete-incident';
export * from './get-incident';
export * from './known-silence-deadlines';
export * from './list-incidents';
export * from './notice-location-silence';
export * from './ports';
export * from './post-incident-update';
export * from './record-check-result';
export * from './resolve-incident';
export * from './steady-memo';
