import type { ReportScope } from '../../domain/reports/report-definition';
import type { ReportScopeRefs, ScopeRefs } from '../../application/reports/ports';
import type { SqlRunner } from '../persistence/database';
import { refFilter } from '../persistence/tenant-scope';
import { sql, raw } from '../persistence/sql';

const TABLES = { customers: 'customers', monitors: 'monitors', tags: 'tags' } as const;
type Kind = keyof typeof TABLES;
const ID_KEYS = { customers: 'customerIds', monitors: 'monitorIds', tags: 'tagIds' } as const;

const intArray = (ids: readonly number[]) => `{${ids.map((id) => Math.trunc(id)).join(',')}}`;

/** Scope references of customers, monitors and tags, matched by public id or legacy integer id inside one organization. */
export class SqlReportScopeRefs implements ReportScopeRefs {
  constructor(private readonly sql: SqlRunner) {}

  async resolve(organizationId: number, refs: ScopeRefs): Promise<{ scope: ReportScope; unknown: ScopeRefs }> {
    const scope: Record<string, number[]> = {};
    const unknown: Record<string, string[]> = {};
    for (const kind of Object.keys(TABLES) as Kind[]) {
      const found = await this.lookup(kind, organizationId, refs[kind]);
      scope[ID_KEYS[kind]] = [...new Set(found.values())].sort((a, b) => a - b);
      unknown[kind] = refs[kind].filter((ref) => !found.has(ref));
    }
    return { scope: scope as unknown as ReportScope, unknown: unknown as unknown as ScopeRefs };
  }

  async present(organizationId: number, scope: ReportScope): Promise<ScopeRefs> {
    const out: Record<string, string[]> = {};
    for (const kind of Object.keys(TABLES) as Kind[]) {
      const ids = scope[ID_KEYS[kind]];
      out[kind] =
        ids.length === 0
          ? []
          : (
              await this.sql.query<{ public_id: string }>(
                sql`SELECT public_id FROM ${raw(TABLES[kind])} WHERE organization_id = ${organizationId} AND id = ANY(${intArray(ids)}::bigint[]) ORDER BY id`,
              )
            ).map((row) => row.public_id);
    }
    return out as unknown as ScopeRefs;
  }

  /** ref -> id of the refs the organization owns. */
  private async lookup(kind: Kind, organizationId: number, refs: readonly string[]): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    if (refs.length === 0) return found;
    const ids: number[] = [];
    const publicIds: string[] = [];
    for (const ref of refs) {
      const filter = refFilter(ref);
      if (filter && 'id' in filter) ids.push(filter.id);
      else if (filter) publicIds.push(filter.publicId);
    }
    const rows = await this.sql.query<{ id: string; public_id: string }>(
      sql`SELECT id, public_id FROM ${raw(TABLES[kind])} WHERE organization_id = ${organizationId} AND (id = ANY(${intArray(ids)}::bigint[]) OR public_id = ANY(${`{${publicIds.join(',')}}`}::uuid[]))`,
    );
    for (const ref of refs) {
      const filter = refFilter(ref);
      const row = filter && rows.find((r) => ('id' in filter ? Number(r.id) === filter.id : r.public_id === filter.publicId));
      if (row) found.set(ref, Number(row.id));
    }
    return found;
  }
}
