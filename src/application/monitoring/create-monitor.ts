import type { Monitor } from '../../domain/monitoring/monitor';
import type { MonitorKind } from '../../domain/monitoring/monitor-kind';
import type { MonitorInput } from '../../domain/monitoring/monitor-plan';
import type { Actor } from '../shared/actor';
import type { CreateControls, MonitorWriter } from './monitor-writer';

/** POST /api/websites and POST /api/monitors/{type}. */
export class CreateMonitor {
  constructor(private readonly writer: MonitorWriter) {}

  execute(actor: Actor, { kind, input }: { kind: MonitorKind; input: MonitorInput & CreateControls }): Promise<Monitor> {
    return this.writer.create(actor, kind, input);
  }
}
