import { assertTagRoom } from '../../domain/monitoring/tag';
import type { Actor } from '../shared/actor';
import type { TransactionRunner } from '../shared/transaction';
import { type MonitorTagInput, resolveTagging } from './monitor-tagging';
import type { MonitorRepository, TagRepository } from './ports';

/** POST /api/monitor-tags: at most 5 tags per monitor; attaching an attached tag succeeds unchanged. */
export class AttachTag {
  constructor(
    private readonly tags: TagRepository,
    private readonly monitors: MonitorRepository,
    private readonly tx: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: MonitorTagInput): Promise<{ alreadyAttached: boolean }> {
    const { tag, monitor } = await resolveTagging(actor, input, this.tags, this.monitors);
    return this.tx.run(async (tx) => {
      await this.monitors.lockMonitor(monitor, tx);
      const outcome = assertTagRoom(await this.tags.attachedTagIds(monitor.id, tx), tag.id);
      if (outcome === 'attach') await this.tags.attach(monitor.id, tag.id, tx);
      return { alreadyAttached: outcome === 'alreadyAttached' };
    });
  }
}
