import type { ManagementType, MonitorKind } from '../../domain/monitoring/monitor-kind';
import type { MonitorInput } from '../../domain/monitoring/monitor-plan';
import type { Actor } from '../shared/actor';
import { loadMonitor } from './load-monitor';
import type { MonitorWriter } from './monitor-writer';
import type { MonitorListItem, MonitorReader, MonitorRepository, RecordRef } from './ports';

/** PATCH /api/websites/{id} and PATCH /api/monitors/{type}/{id}: partial updates. */
export class UpdateMonitor {
  constructor(private readonly monitors: MonitorRepository, private readonly writer: MonitorWriter, private readonly reader: MonitorReader) {}

  async execute(
    actor: Actor, { kind, ref, input }: { kind: MonitorKind; ref: RecordRef; input: MonitorInput & { managementType?: ManagementType } },
  ): Promise<MonitorListItem> {
    const monitor = await loadMonitor(this.monitors, actor.scope, kind, ref);
    const updated = await this.writer.update(actor, monitor, input);
    return this.reader.one(actor.scope, updated);
  }
}
