import type { Monitor } from '../../domain/monitoring/monitor';
import type { ManagementType, MonitorKind } from '../../domain/monitoring/monitor-kind';
import type { MonitorInput } from '../../domain/monitoring/monitor-plan';
import type { Actor } from '../shared/actor';
import { loadMonitor } from './load-monitor';
import type { DependencyInput, MonitorWriter } from './monitor-writer';
import type { MonitorRepository, RecordRef } from './ports';

/** PATCH /api/websites/{id} and PATCH /api/monitors/{type}/{id}: partial updates. */
export class UpdateMonitor {
  constructor(
    private readonly monitors: MonitorRepository,
    private readonly writer: MonitorWriter,
  ) {}

  async execute(
    actor: Actor,
    {
      kind,
      ref,
      input,
    }: { kind: MonitorKind; ref: RecordRef; input: MonitorInput & DependencyInput & { managementType?: ManagementType } },
  ): Promise<Monitor> {
    const monitor = await loadMonitor(this.monitors, actor.scope, kind, ref);
    return this.writer.update(actor, monitor, input, null);
  }
}
