/** The watches context's public surface: its use cases, their ports and the ports' tokens. */
export * from './ports';
export * from './run-watches';
