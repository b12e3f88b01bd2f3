import { AppError } from '../../domain/shared/app-error';
import type { StatusPage } from '../../domain/status-pages/status-page';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { StatusPageRepository } from './ports';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const POSITIVE_INT = /^[1-9]\d{0,9}$/;

/** A status page id as paths take it: its public id (uuid) or its legacy positive integer id. */
export const isPageRef = (ref: string): boolean => UUID.test(ref) || (POSITIVE_INT.test(ref) && Number(ref) <= 2_147_483_647);

/**
 * The spec's statusPageNotFound is "400 or 404": a malformed id, or one that resolves to a page the
 * caller's scope does not reach, is the caller's mistake (400, data.reason says which); a page that
 * does not exist at all is 404.
 */
export async function findPageInScope(pages: StatusPageRepository, scope: TenantScope, ref: string): Promise<StatusPage> {
  if (!isPageRef(ref)) throw new AppError('statusPageNotFound', { reason: 'malformedId' }, 'The status page id is neither a UUID nor a positive integer');
  const page = await pages.findByRef(scope, ref);
  if (page) return page;
  if (await pages.exists(ref)) throw new AppError('statusPageNotFound', { reason: 'outOfScope' }, 'The status page is outside the caller\'s scope');
  throw new AppError('statusPageNotFound');
}
