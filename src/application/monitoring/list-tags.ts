import type { Tag } from '../../domain/monitoring/tag';
import type { Actor } from '../shared/actor';
import type { TagRepository } from './ports';

/** GET /api/tags: the tags visible to the caller, by name; optionally one customer's. */
export class ListTags {
  constructor(private readonly tags: TagRepository) {}

  execute(actor: Actor, { customerId }: { customerId?: string }): Promise<Tag[]> {
    return this.tags.list(actor.scope, customerId);
  }
}
