/** The observability context's public surface: its use cases, their ports and the ports' tokens. */
export * from './metered-outcome-recorder';
export * from './ports';
