import type { PageIncident } from '../../domain/status-pages/page-incident';
import type { StatusPage } from '../../domain/status-pages/status-page';
import type { ComponentCatalog } from './ports';

export interface PageIncidentView {
  readonly incident: PageIncident;
  /** Public ids of the affected components that still exist. */
  readonly componentIds: readonly string[];
}

/** Page incidents with their components by public id. */
export async function pageIncidentViews(
  catalog: ComponentCatalog,
  page: StatusPage,
  incidents: readonly PageIncident[],
): Promise<PageIncidentView[]> {
  const existing = await catalog.existing(page.organizationId, page.components);
  return incidents.map((incident) => ({
    incident,
    componentIds: incident.componentKeys.flatMap((key) => {
      const record = existing.get(key);
      return record ? [record.publicId] : [];
    }),
  }));
}
