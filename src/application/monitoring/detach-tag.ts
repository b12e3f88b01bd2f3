import type { Actor } from '../shared/actor';
import type { TransactionRunner } from '../shared/transaction';
import { type MonitorTagInput, resolveTagging } from './monitor-tagging';
import type { MonitorRepository, TagRepository } from './ports';

/** DELETE /api/monitor-tags: idempotent; a tag that is not attached stays detached. */
export class DetachTag {
  constructor(
    private readonly tags: TagRepository,
    private readonly monitors: MonitorRepository,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: MonitorTagInput): Promise<void> {
    const { tag, monitor } = await resolveTagging(actor, input, this.tags, this.monitors);
    await this.transactions.run((tx) => this.tags.detach(monitor.id, tag.id, tx));
  }
}
