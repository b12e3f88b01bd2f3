import type { MonitorKind } from '../../domain/monitoring/monitor-kind';
import type { Actor } from '../shared/actor';
import type { TransactionRunner } from '../shared/transaction';
import { loadMonitor } from './load-monitor';
import type { MonitorWriter } from './monitor-writer';
import type { MonitorRepository, RecordRef } from './ports';

/** DELETE /api/websites/{id} and DELETE /api/monitors/{type}/{id}; tags and change requests go with it. */
export class DeleteMonitor {
  constructor(
    private readonly monitors: MonitorRepository,
    private readonly writer: MonitorWriter,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute(actor: Actor, { kind, ref }: { kind: MonitorKind; ref: RecordRef }): Promise<void> {
    const monitor = await loadMonitor(this.monitors, actor.scope, kind, ref);
    await this.transactions.run((tx) => this.writer.remove(actor, monitor, tx));
  }
}
