import { AppError } from '../shared/app-error';
import { isPermitted, type ActionName, type Principal } from '../identity/permissions';
import type { ManagementType } from './monitor-kind';

/** Who is changing monitors, as far as ownership rules care. */
export type MonitorEditor = Principal;

/** The customer settings the ownership rules read. */
export interface SelfServiceTerms {
  readonly allowSelfService: boolean;
  /** Self-service monitors of all kinds together; null = no limit. */
  readonly maxSelfServiceUrls: number | null;
  readonly canEditManaged: boolean;
}

const isOrgAdmin = (editor: MonitorEditor) => isPermitted(editor, 'monitor.changeManagementType');

/** Only admins and editors change monitors (PERMISSIONS); read-only users and responders read. */
export function assertMayWrite(editor: MonitorEditor, action: ActionName = 'monitor.update'): void {
  if (!isPermitted(editor, action)) throw new AppError('roleForbidden');
}

/**
 * The class of a new monitor. Customer-scoped callers create self-service monitors (asking for
 * managed is managementTypeOrgOnly); organization callers create managed ones, and only an
 * organization admin may choose self_service.
 */
export function managementTypeOnCreate(editor: MonitorEditor, requested: ManagementType | undefined): ManagementType {
  const fallback: ManagementType = editor.customerScoped ? 'self_service' : 'managed';
  if (requested === undefined || requested === fallback) return fallback;
  if (!isOrgAdmin(editor)) throw new AppError('managementTypeOrgOnly');
  return requested;
}

/** Customer-scoped callers create monitors only where the customer allows self service. */
export function assertMayCreate(editor: MonitorEditor, terms: SelfServiceTerms): void {
  assertMayWrite(editor, 'monitor.create');
  if (editor.customerScoped && !terms.allowSelfService) throw new AppError('selfServiceNotAllowed');
}

/** One more self-service monitor must fit maxSelfServiceUrls (all kinds count together). */
export function assertSelfServiceRoom(selfServiceCount: number, terms: SelfServiceTerms): void {
  if (terms.maxSelfServiceUrls !== null && selfServiceCount + 1 > terms.maxSelfServiceUrls) {
    throw new AppError('selfServiceQuotaReached', { maxSelfServiceUrls: terms.maxSelfServiceUrls });
  }
}

/** Managed monitors are the organization's: customer-scoped callers need canEditManaged (else change requests). */
export function assertMayEdit(editor: MonitorEditor, managementType: ManagementType, terms: SelfServiceTerms): void {
  assertMayWrite(editor);
  if (editor.customerScoped && managementType === 'managed' && !terms.canEditManaged) throw new AppError('managed_by_organization');
}

/** Read-only users never delete monitors, of any class; otherwise as editing. */
export function assertMayDelete(editor: MonitorEditor, managementType: ManagementType, terms: SelfServiceTerms): void {
  if (!isPermitted(editor, 'monitor.delete')) throw new AppError(editor.role === 'readonly' ? 'readonlyMayNotDelete' : 'roleForbidden');
  assertMayEdit(editor, managementType, terms);
}

/** managementType changes are for organization admins only (not editors, not customer-scoped callers). */
export function assertMayChangeManagementType(editor: MonitorEditor): void {
  if (!isOrgAdmin(editor)) throw new AppError('managementTypeOrgOnly');
}
