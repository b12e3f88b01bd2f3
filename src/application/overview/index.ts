/** The overview context's public surface: a console's read of every monitor and its uptime bars. */
export * from './ports';
export * from './list-monitor-overview';
export * from './get-uptime-bars';
export * from '../../domain/overview/monitor-overview';
