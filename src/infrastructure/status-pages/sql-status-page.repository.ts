import type { Transaction } from '../../application/shared/transaction';
import { sqlOf } from '../persistence/sql-transaction';
import { AppError } from '../../domain/shared/app-error';
import { StatusPage, type ComponentGroup } from '../../domain/status-pages/status-page';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { StatusPageRepository } from '../../application/status-pages/ports';
import type { SqlRunner } from '../persistence/database';
import { refCondition } from '../persistence/tenant-scope';
import { raw, sql } from '../persistence/sql';

interface PageRow {
  id: number;
  public_id: string;
  organization_id: number;
  customer_id: number | null;
  title: string;
  slug: string;
  description: string | null;
  logo: string | null;
  brand_color: string;
  groups: ComponentGroup[] | string;
  show_response_times: boolean;
  footer: string | null;
  ip_allowlist: string[] | string;
  objectives: number[] | string;
  password_hash: string | null;
  access_secret: string;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
  custom_domain: string | null;
}

const COLUMNS = `p.id, p.public_id, p.organization_id, p.customer_id, p.title, p.slug, p.description, p.logo, p.brand_color, p.groups,
  p.show_response_times, p.footer, p.ip_allowlist, p.objectives, p.password_hash, p.access_secret, p.created_at, p.updated_at, p.version,
  (SELECT d.hostname FROM custom_domains d WHERE d.status_page_id = p.id AND d.kind = 'statusPage' AND d.status = 'active'
    ORDER BY d.id LIMIT 1) AS custom_domain`;

const json = <T>(value: T | string): T => (typeof value === 'string' ? JSON.parse(value) : value);

const toPage = (row: PageRow) =>
  new StatusPage({
    id: Number(row.id),
    publicId: row.public_id,
    organizationId: Number(row.organization_id),
    customerId: row.customer_id === null ? null : Number(row.customer_id),
    title: row.title,
    slug: row.slug,
    description: row.description,
    logo: row.logo,
    brandColor: row.brand_color,
    groups: json(row.groups),
    showResponseTimes: row.show_response_times,
    footer: row.footer,
    ipAllowlist: json(row.ip_allowlist),
    objectives: json(row.objectives).map(Number),
    passwordHash: row.password_hash,
    accessSecret: row.access_secret,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    version: Number(row.version),
    customDomain: row.custom_domain ?? null,
  });

const scopeSql = (scope: TenantScope) =>
  scope.customerId === null
    ? sql`p.organization_id = ${scope.organizationId}`
    : sql`p.organization_id = ${scope.organizationId} AND p.customer_id = ${scope.customerId}`;

const groupsJson = (groups: readonly ComponentGroup[]) =>
  JSON.stringify(groups.map((g) => ({ name: g.name, components: g.components.map((c) => ({ type: c.type, id: c.id, name: c.name })) })));

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string })?.code === '23505' || /duplicate key|unique constraint/i.test(String((error as Error)?.message));

/** Status pages in plain SQL on the current unit of work. */
export class SqlStatusPageRepository implements StatusPageRepository {
  constructor(private readonly sql: SqlRunner) {}

  async add(page: StatusPage, tx: Transaction): Promise<StatusPage> {
    const rows = await sqlOf(tx).query<{ id: number }>(
      sql`INSERT INTO status_pages (public_id, organization_id, customer_id, title, slug, description, logo, brand_color, groups,
         show_response_times, footer, ip_allowlist, objectives, password_hash, access_secret, created_at, updated_at, version)
       VALUES (${page.publicId}, ${page.organizationId}, ${page.customerId}, ${page.title}, ${page.slug}, ${page.description}, ${page.logo}, ${page.brandColor}, ${groupsJson(page.groups)}::jsonb, ${page.showResponseTimes}, ${page.footer}, ${JSON.stringify(page.ipAllowlist)}::jsonb, ${JSON.stringify(page.objectives)}::jsonb, ${page.passwordHash}, ${page.accessSecret}, ${page.createdAt}, ${page.updatedAt}, 1)
       ON CONFLICT (slug) DO NOTHING RETURNING id`,
    );
    if (!rows[0]) throw new AppError('statusPageSlugTaken', { slug: page.slug });
    page.id = Number(rows[0].id);
    return page;
  }

  async findByRef(scope: TenantScope, ref: string): Promise<StatusPage | null> {
    const by = refCondition(ref, 'p');
    if (!by) return null;
    const rows = await this.sql.query<PageRow>(sql`SELECT ${raw(COLUMNS)} FROM status_pages p WHERE ${scopeSql(scope)} AND ${by}`);
    return rows[0] ? toPage(rows[0]) : null;
  }

  listIn(scope: TenantScope, tx: Transaction): Promise<StatusPage[]> {
    return this.list(scope, sqlOf(tx));
  }

  async list(scope: TenantScope, on: SqlRunner = this.sql): Promise<StatusPage[]> {
    return (await on.query<PageRow>(sql`SELECT ${raw(COLUMNS)} FROM status_pages p WHERE ${scopeSql(scope)} ORDER BY p.id`)).map(toPage);
  }

  async save(page: StatusPage, tx: Transaction): Promise<void> {
    let rows: unknown[];
    try {
      rows = await sqlOf(tx).query(
        sql`UPDATE status_pages SET title = ${page.title}, slug = ${page.slug}, description = ${page.description}, logo = ${page.logo}, brand_color = ${page.brandColor}, groups = ${groupsJson(page.groups)}::jsonb, show_response_times = ${page.showResponseTimes},
           footer = ${page.footer}, ip_allowlist = ${JSON.stringify(page.ipAllowlist)}::jsonb, objectives = ${JSON.stringify(page.objectives)}::jsonb, password_hash = ${page.passwordHash}, access_secret = ${page.accessSecret}, updated_at = ${page.updatedAt}, version = version + 1
         WHERE id = ${page.id} AND version = ${page.version} RETURNING version`,
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('statusPageSlugTaken', { slug: page.slug });
      throw error;
    }
    if (rows.length === 0) throw new AppError('conflict', {}, 'The status page changed meanwhile; read it again');
    page.version += 1;
  }

  async remove(page: StatusPage, tx: Transaction): Promise<void> {
    await sqlOf(tx).query(sql`DELETE FROM status_pages WHERE id = ${page.id}`);
  }

  async findBySlug(slug: string): Promise<StatusPage | null> {
    const rows = await this.sql.query<PageRow>(sql`SELECT ${raw(COLUMNS)} FROM status_pages p WHERE p.slug = ${slug}`);
    return rows[0] ? toPage(rows[0]) : null;
  }

  async findById(id: number): Promise<StatusPage | null> {
    const rows = await this.sql.query<PageRow>(sql`SELECT ${raw(COLUMNS)} FROM status_pages p WHERE p.id = ${id}`);
    return rows[0] ? toPage(rows[0]) : null;
  }
}
