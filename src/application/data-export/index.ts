/** The data export context's public surface: its use cases, their ports and the ports' tokens, and the domain types they speak. */
export * from './download-data-export';
export * from './generate-data-exports';
export * from './list-data-exports';
export * from './ports';
export * from './request-data-export';
export * from '../../domain/data-export/data-export';
