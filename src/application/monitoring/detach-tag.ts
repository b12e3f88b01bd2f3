import type { Actor } from '../shared/actor';
import { type MonitorTagInput, resolveTagging } from './monitor-tagging';
import type { MonitorRepository, TagRepository } from './ports';

/** DELETE /api/monitor-tags: idempotent; a tag that is not attached stays detached. */
export class DetachTag {
  constructor(
    private readonly tags: TagRepository,
    private readonly monitors: MonitorRepository,
  ) {}

  async execute(actor: Actor, input: MonitorTagInput): Promise<void> {
    const { tag, monitor } = await resolveTagging(actor, input, this.tags, this.monitors);
    await this.tags.detach(monitor.id, tag.id);
  }
}
