import { AppError } from '../../domain/shared/app-error';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { Monitor } from '../../domain/monitoring/monitor';
import type { MonitorKind } from '../../domain/monitoring/monitor-kind';
import type { MonitorRepository, RecordRef } from './ports';

/** A monitor visible in the scope, else websiteNotFound (websites) or monitorNotFound (other kinds). */
export async function loadMonitor(monitors: MonitorRepository, scope: TenantScope, kind: MonitorKind, ref: RecordRef): Promise<Monitor> {
  const monitor = await monitors.findByRef(scope, kind, ref);
  if (!monitor) throw new AppError(kind === 'website' ? 'websiteNotFound' : 'monitorNotFound');
  return monitor;
}
