import { componentKey, type ComponentType, type StatusPage } from '../../domain/status-pages/status-page';
import { NO_PAGE_OBJECTIVES, type ComponentCatalog, type PageObjectives } from './ports';

export interface ComponentView {
  readonly type: ComponentType;
  readonly id: string;
  /** The name the page gives it, or null to show the record's own name. */
  readonly name: string | null;
  /** The record's own name (monitor name, domain name, IP label). */
  readonly recordName: string;
}

/** A page with its components by public id; components whose record was deleted are left out. */
export interface StatusPageView {
  readonly page: StatusPage;
  readonly groups: readonly { name: string; components: readonly ComponentView[] }[];
  /** The service level objectives shown, by public id with their names; deleted ones are left out. */
  readonly objectives: readonly { id: string; name: string }[];
}

export class StatusPageViews {
  constructor(
    private readonly catalog: ComponentCatalog,
    private readonly pageObjectives: PageObjectives = NO_PAGE_OBJECTIVES,
  ) {}

  async one(page: StatusPage): Promise<StatusPageView> {
    return (await this.many([page]))[0]!;
  }

  async many(pages: readonly StatusPage[]): Promise<StatusPageView[]> {
    if (pages.length === 0) return [];
    const existing = await this.catalog.existing(
      pages[0]!.organizationId,
      pages.flatMap((p) => p.components),
    );
    const objectives = await this.pageObjectives.existing(
      pages[0]!.organizationId,
      pages.flatMap((p) => p.objectives),
    );
    return pages.map((page) => ({
      page,
      objectives: page.objectives.flatMap((id) => {
        const record = objectives.get(id);
        return record ? [{ id: record.publicId, name: record.name }] : [];
      }),
      groups: page.groups.map((group) => ({
        name: group.name,
        components: group.components.flatMap((c) => {
          const record = existing.get(componentKey(c));
          return record ? [{ type: c.type, id: record.publicId, name: c.name, recordName: record.name }] : [];
        }),
      })),
    }));
  }
}
