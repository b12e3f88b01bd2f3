import { AppError } from '../../domain/shared/app-error';
import { CustomField } from '../../domain/tenancy/custom-field';
import type { TenantScope } from '../../domain/shared/tenant-scope';
import type { CustomFieldRepository, RecordRef } from '../../application/tenancy/ports';
import type { Transaction } from '../../application/shared/transaction';
import type { SqlRunner } from '../persistence/database';
import { racing, versionSaved } from '../persistence/optimistic';
import { dateOf, jsonOf } from '../persistence/row';
import { sqlOf } from '../persistence/sql-transaction';
import { raw, sql } from '../persistence/sql';
import { refCondition } from '../persistence/tenant-scope';

/** PostgreSQL's unique_violation: the organization has a field with that key already. */
const UNIQUE_VIOLATION = '23505';

const COLUMNS = raw(`id, public_id, organization_id, name, field_key, field_type, is_required, display_order, options, placeholder,
  help_text, show_in_table, is_active, created_at, updated_at, version`);

interface FieldRow {
  id: number;
  public_id: string;
  organization_id: number;
  name: string;
  field_key: string;
  field_type: CustomField['fieldType'];
  is_required: boolean;
  display_order: number;
  options: unknown;
  placeholder: string | null;
  help_text: string | null;
  show_in_table: boolean;
  is_active: boolean;
  created_at: Date | string;
  updated_at: Date | string;
  version: number;
}

/** A stored field (no constructor: the row was valid when written). */
function fieldOf(row: FieldRow): CustomField {
  return Object.assign(Object.create(CustomField.prototype) as CustomField, {
    id: Number(row.id),
    publicId: row.public_id,
    organizationId: Number(row.organization_id),
    name: row.name,
    fieldKey: row.field_key,
    fieldType: row.field_type,
    isRequired: row.is_required,
    displayOrder: Number(row.display_order),
    options: jsonOf<string[]>(row.options),
    placeholder: row.placeholder,
    helpText: row.help_text,
    showInTable: row.show_in_table,
    isActive: row.is_active,
    createdAt: dateOf(row.created_at),
    updatedAt: dateOf(row.updated_at),
    version: Number(row.version),
  });
}

/** A write refused by the organization's unique field keys answers `customFieldKeyTaken`. */
async function uniqueKey<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await racing(write);
  } catch (error) {
    if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) throw new AppError('customFieldKeyTaken');
    throw error;
  }
}

/** An organization's custom fields in the `sql` kit; a save names the version it read (a lost race is `conflict`). */
export class SqlCustomFieldRepository implements CustomFieldRepository {
  constructor(private readonly sql: SqlRunner) {}

  listIn(scope: TenantScope, tx: Transaction): Promise<CustomField[]> {
    return this.list(scope, sqlOf(tx));
  }

  findByRefIn(scope: TenantScope, ref: RecordRef, tx: Transaction): Promise<CustomField | null> {
    return this.findByRef(scope, ref, sqlOf(tx));
  }

  async list(scope: TenantScope, on: SqlRunner = this.sql): Promise<CustomField[]> {
    const rows = await on.query<FieldRow>(
      sql`SELECT ${COLUMNS} FROM custom_fields WHERE organization_id = ${scope.organizationId} ORDER BY display_order ASC, id ASC`,
    );
    return rows.map(fieldOf);
  }

  async findByRef(scope: TenantScope, ref: RecordRef, on: SqlRunner = this.sql): Promise<CustomField | null> {
    const condition = refCondition(ref, 'f');
    if (!condition) return null;
    const [row] = await on.query<FieldRow>(
      sql`SELECT ${COLUMNS} FROM custom_fields f WHERE ${condition} AND f.organization_id = ${scope.organizationId}`,
    );
    return row ? fieldOf(row) : null;
  }

  async add(field: CustomField, tx: Transaction): Promise<CustomField> {
    const f = field;
    const [row] = await uniqueKey(() =>
      sqlOf(tx).query<{ id: number }>(
        sql`INSERT INTO custom_fields (public_id, organization_id, name, field_key, field_type, is_required, display_order, options,
            placeholder, help_text, show_in_table, is_active, created_at, updated_at, version)
          VALUES (${f.publicId}, ${f.organizationId}, ${f.name}, ${f.fieldKey}, ${f.fieldType}, ${f.isRequired}, ${f.displayOrder},
            ${JSON.stringify(f.options)}, ${f.placeholder}, ${f.helpText}, ${f.showInTable}, ${f.isActive}, ${f.createdAt}, ${f.updatedAt},
            ${f.version})
          RETURNING id`,
      ),
    );
    f.id = Number(row!.id);
    return f;
  }

  async save(field: CustomField, tx: Transaction): Promise<void> {
    const f = field;
    const rows = await uniqueKey(() =>
      sqlOf(tx).query(
        sql`UPDATE custom_fields SET name = ${f.name}, field_key = ${f.fieldKey}, field_type = ${f.fieldType}, is_required = ${f.isRequired},
            display_order = ${f.displayOrder}, options = ${JSON.stringify(f.options)}, placeholder = ${f.placeholder},
            help_text = ${f.helpText}, show_in_table = ${f.showInTable}, is_active = ${f.isActive}, updated_at = ${f.updatedAt},
            version = version + 1
          WHERE id = ${f.id} AND organization_id = ${f.organizationId} AND version = ${f.version} RETURNING version`,
      ),
    );
    versionSaved(f, rows);
  }

  async remove(field: CustomField, tx: Transaction): Promise<void> {
    await racing(() =>
      sqlOf(tx).query(sql`DELETE FROM custom_fields WHERE id = ${field.id} AND organization_id = ${field.organizationId}`),
    );
  }
}
