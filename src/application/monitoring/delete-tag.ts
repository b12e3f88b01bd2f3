import { AppError } from '../../domain/shared/app-error';
import { assertMayWrite } from '../../domain/monitoring/ownership';
import type { Actor } from '../shared/actor';
import type { TransactionRunner } from '../shared/transaction';
import { editorOf } from './monitor-editor';
import type { RecordRef, TagRepository } from './ports';

/** DELETE /api/tags/{id}: the tag comes off every monitor it labels. */
export class DeleteTag {
  constructor(
    private readonly tags: TagRepository,
    private readonly transactions: TransactionRunner,
  ) {}

  async execute(actor: Actor, { ref }: { ref: RecordRef }): Promise<void> {
    assertMayWrite(editorOf(actor));
    const tag = await this.tags.findByRef(actor.scope, ref);
    if (!tag) throw new AppError('tagNotFound');
    await this.transactions.run((tx) => this.tags.remove(tag, tx));
  }
}
