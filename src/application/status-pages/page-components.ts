import { AppError } from '../../domain/shared/app-error';
import { componentKey, type StatusPage } from '../../domain/status-pages/status-page';
import type { ComponentCatalog } from './ports';

/** Components of the page named by their record's public or legacy id, as keys; an id not on the page is a validation error. */
export async function componentKeysOf(catalog: ComponentCatalog, page: StatusPage, refs: readonly string[]): Promise<string[]> {
  if (refs.length === 0) return [];
  const existing = [...(await catalog.existing(page.organizationId, page.components)).values()];
  return refs.map((ref) => {
    const record = existing.find((r) => r.publicId === ref.toLowerCase() || String(r.id) === ref);
    if (!record)
      throw new AppError('validationFailed', { field: 'componentIds', componentId: ref }, `Not a component of this page: ${ref}`);
    return componentKey(record);
  });
}
