import { AppError } from '../../domain/shared/app-error';
import type { StatusPage } from '../../domain/status-pages/status-page';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { StatusPageRepository } from './ports';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const POSITIVE_INT = /^[1-9]\d{0,9}$/;

/** A status page id as paths take it: its public id (uuid) or its legacy positive integer id. */
export const isPageRef = (ref: string): boolean => UUID.test(ref) || (POSITIVE_INT.test(ref) && Number(ref) <= 2_147_483_647);

/**
 * The spec's statusPageNotFound is "400 or 404": a malformed id is the request's mistake (400,
 * data.reason `malformedId`); a page outside the caller's scope answers exactly as one that does not
 * exist (404, same body), after the same single scoped lookup, so neither the answer nor its timing
 * tells whether another organization has a page with that id.
 */
export async function findPageInScope(pages: StatusPageRepository, scope: TenantScope, ref: string): Promise<StatusPage> {
  if (!isPageRef(ref))
    throw new AppError('statusPageNotFound', { reason: 'malformedId' }, 'The status page id is neither a UUID nor a positive integer');
  const page = await pages.findByRef(scope, ref);
  if (page) return page;
  throw new AppError('statusPageNotFound');
}
