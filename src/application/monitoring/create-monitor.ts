import type { MonitorKind } from '../../domain/monitoring/monitor-kind';
import type { MonitorInput } from '../../domain/monitoring/monitor-plan';
import type { Actor } from '../shared/actor';
import type { CreateControls, MonitorWriter } from './monitor-writer';
import type { MonitorListItem, MonitorReader } from './ports';

/** POST /api/websites and POST /api/monitors/{type}. */
export class CreateMonitor {
  constructor(private readonly writer: MonitorWriter, private readonly reader: MonitorReader) {}

  async execute(actor: Actor, { kind, input }: { kind: MonitorKind; input: MonitorInput & CreateControls }): Promise<MonitorListItem> {
    const monitor = await this.writer.create(actor, kind, input);
    return this.reader.one(actor.scope, monitor);
  }
}
