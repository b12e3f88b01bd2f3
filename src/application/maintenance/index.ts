/** The maintenance context's public surface: its use cases, their ports and the ports' tokens. */
export * from './announce-maintenance';
export * from './asset-maintenance';
export * from './check-maintenance';
export * from './check-maintenance-batch';
export * from './create-maintenance-window';
export * from './delete-maintenance-window';
export * from './get-maintenance-window';
export * from './list-maintenance-windows';
export * from './maintenance-suppression';
export * from './maintenance-uptime-exclusions';
export * from './ports';
export * from './preview-occurrences';
export * from './update-maintenance-window';
export * from './window-input';
export * from './window-view';
export * from './maintenance-now-query';
