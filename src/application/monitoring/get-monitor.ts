import type { MonitorKind } from '../../domain/monitoring/monitor-kind';
import type { Actor } from '../shared/actor';
import { loadMonitor } from './load-monitor';
import type { MonitorListItem, MonitorReader, MonitorRepository, RecordRef } from './ports';

export class GetMonitor {
  constructor(
    private readonly monitors: MonitorRepository,
    private readonly reader: MonitorReader,
  ) {}

  async execute(actor: Actor, { kind, ref }: { kind: MonitorKind; ref: RecordRef }): Promise<MonitorListItem> {
    return this.reader.one(actor.scope, await loadMonitor(this.monitors, actor.scope, kind, ref));
  }
}
