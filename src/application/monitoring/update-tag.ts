import { AppError } from '../../domain/shared/app-error';
import { assertMayWrite } from '../../domain/monitoring/ownership';
import type { Tag } from '../../domain/monitoring/tag';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { TransactionRunner } from '../shared/transaction';
import { editorOf } from './monitor-editor';
import type { RecordRef, TagRepository } from './ports';

/** PATCH /api/tags/{id}: rename or recolour. */
export class UpdateTag {
  constructor(
    private readonly tags: TagRepository,
    private readonly clock: Clock,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute(actor: Actor, input: { ref: RecordRef; name?: string; color?: string }): Promise<Tag> {
    assertMayWrite(editorOf(actor));
    const tag = await this.tags.findByRef(actor.scope, input.ref);
    if (!tag) throw new AppError('tagNotFound');
    tag.update({ name: input.name, color: input.color }, this.clock.now());
    await this.transactions.run((tx) => this.tags.save(tag, tx));
    return tag;
  }
}
