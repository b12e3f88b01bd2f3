/** The service-levels context's public surface: its use cases, their ports and the ports' tokens. */
export * from './create-objective';
export * from './delete-objective';
export * from './evaluate-burn-alerts';
export * from './get-objective';
export * from './get-objective-status';
export * from './list-objectives';
export * from './objective-meter';
export * from './ports';
export * from './update-objective';
export * from './report-service-levels';
export * from './page-service-levels';
