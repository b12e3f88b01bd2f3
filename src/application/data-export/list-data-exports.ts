import { AppError } from '../../domain/shared/app-error';
import type { DataExport } from '../../domain/data-export/data-export';
import { type Actor, requireAction } from '../shared/actor';
import type { DataExportRepository } from './ports';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The organization's exports, newest first, and one of them by id (administrators). */
export class ListDataExports {
  constructor(private readonly exports: DataExportRepository) {}

  async execute(actor: Actor): Promise<DataExport[]> {
    requireAction(actor, 'dataExport.request');
    return this.exports.list(actor.scope.organizationId, 20);
  }

  /** missingExportId without an id; another organization's export is as missing as none (notFound). */
  async one(actor: Actor, id: string | undefined): Promise<DataExport> {
    requireAction(actor, 'dataExport.request');
    return findExport(this.exports, actor.scope.organizationId, id);
  }
}

export async function findExport(exports: DataExportRepository, organizationId: number, id: string | undefined): Promise<DataExport> {
  if (id === undefined || id.trim() === '') throw new AppError('missingExportId');
  const found = UUID.test(id) ? await exports.find(organizationId, id) : null;
  if (!found) throw new AppError('notFound', { resource: 'dataExport' });
  return found;
}
