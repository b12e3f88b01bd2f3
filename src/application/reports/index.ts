/** The reports context's public surface: its use cases, their ports and the ports' tokens. */
export * from './create-report';
export * from './delete-report';
export * from './get-report';
export * from './get-report-pdf';
export * from './get-report-run';
export * from './list-report-runs';
export * from './list-reports';
export * from './ports';
export * from './report-input';
export * from './report-runner';
export * from './report-view';
export * from './run-due-reports';
export * from './run-report-now';
export * from './set-report-logo';
export * from './update-report';
