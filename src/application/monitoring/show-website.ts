import { AppError } from '../../domain/shared/app-error';
import type { Actor } from '../shared/actor';
import type { MonitorReader, RecordRef } from './ports';

/** One website record as JSON (GET, and the answer of create and update); websiteNotFound outside the scope. */
export class ShowWebsite {
  constructor(private readonly reader: MonitorReader) {}

  async execute(actor: Actor, { ref }: { ref: RecordRef }): Promise<string> {
    const document = await this.reader.website(actor.scope, ref);
    if (document === null) throw new AppError('websiteNotFound');
    return document;
  }
}
