import type { ApiRecord } from './api-client';
import { envName, envRef } from './env-refs';
import type { ComponentRef, CustomFieldEntry, MaintenanceWindowEntry, StatusPageEntry, TargetRef } from './file-schema';
import { type Actual, type Desired, STORED_SECRET } from './resources';

/**
 * Custom fields, maintenance windows and status pages as resources. Windows and pages name
 * monitors: the file names them by key, the service by publicId, so both sides are compared in the
 * file's terms (a monitor's key, or its publicId when it has none) and turned into publicIds only
 * when apply sends them (`MonitorIds`).
 */

/** A monitor's key (or publicId) by publicId, from the service's monitors. */
export type MonitorKeys = ReadonlyMap<string, string>;

/** A monitor's publicId by key (or publicId): the service's, then those apply creates. */
export type MonitorIds = Map<string, string>;

const CUSTOM_FIELD_SETTINGS = [
  'name',
  'fieldType',
  'isRequired',
  'displayOrder',
  'options',
  'placeholder',
  'helpText',
  'showInTable',
  'isActive',
] as const;

export function customFieldFromRecord(record: ApiRecord): Actual {
  const fields = Object.fromEntries(CUSTOM_FIELD_SETTINGS.map((f) => [f, record[f]]));
  return { type: 'customField', key: record.fieldKey, kind: record.fieldType, customer: null, fields, id: record.publicId };
}

export function customFieldFromEntry(entry: CustomFieldEntry, where: () => string, whereField: (f: string) => string): Desired {
  const { fieldKey, ...fields } = entry;
  return { type: 'customField', key: fieldKey, kind: entry.fieldType, customer: null, fields, where, whereField };
}

export const entryOfCustomField = (actual: Actual): Record<string, unknown> => ({ fieldKey: actual.key, ...actual.fields });

/** A target or component in the file's terms, ordered the same way on both sides. */
const refOf = (type: string, id: string, keys: MonitorKeys): Record<string, string> =>
  type === 'monitor' || type === 'website' ? { monitor: keys.get(id) ?? id } : { [type]: id };
const byText = (a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b));
const instant = (value: string) => new Date(value).toISOString();

const WINDOW_FIELDS = ['title', 'description', 'timezone', 'rrule', 'suppressAlerts', 'excludeFromUptime'] as const;

export function windowFromRecord(record: ApiRecord, customers: ReadonlyMap<number, string>, keys: MonitorKeys): Actual {
  const fields: Record<string, unknown> = Object.fromEntries(WINDOW_FIELDS.map((f) => [f, record[f]]));
  fields.startTime = record.startTime;
  fields.endTime = record.endTime;
  fields.targets = (record.targets as Array<{ type: string; id: string }>).map((t) => refOf(t.type, t.id, keys)).sort(byText);
  const customer = record.customerId === null ? null : (customers.get(record.customerId) ?? String(record.customerId));
  return { type: 'maintenanceWindow', key: record.key ?? record.id, kind: 'window', customer, fields, id: record.id };
}

/** A window entry; its customer is the service's to derive from the targets, so the file's stands only for scoping. */
export function windowFromEntry(
  entry: MaintenanceWindowEntry,
  fileCustomer: string | null,
  where: () => string,
  whereField: (f: string) => string,
): Desired {
  const { key, ...rest } = entry;
  const fields: Record<string, unknown> = { ...rest };
  fields.startTime = instant(entry.startTime);
  fields.endTime = instant(entry.endTime);
  fields.targets = [...entry.targets].sort(byText);
  return { type: 'maintenanceWindow', key, kind: 'window', customer: fileCustomer, fields, where, whereField };
}

export const entryOfWindow = (actual: Actual): Record<string, unknown> => ({ key: actual.key, ...actual.fields });

const PAGE_FIELDS = ['title', 'description', 'logo', 'brandColor', 'showResponseTimes', 'footer', 'ipAllowlist'] as const;

interface GroupRecord {
  name: string;
  components: Array<{ type: string; id: string; name: string | null }>;
}

export function pageFromRecord(record: ApiRecord, customers: ReadonlyMap<number, string>, keys: MonitorKeys): Actual {
  const fields: Record<string, unknown> = Object.fromEntries(PAGE_FIELDS.map((f) => [f, record[f]]));
  fields.groups = (record.groups as GroupRecord[]).map((g) => ({
    name: g.name,
    components: g.components.map((c) => ({ ...refOf(c.type, c.id, keys), ...(c.name === null ? {} : { name: c.name }) })),
  }));
  // Objectives by publicId (they are not in the file: the service gives them their ids).
  fields.objectives = ((record.objectives as Array<{ id: string }> | undefined) ?? []).map((o) => o.id);
  fields.password = record.passwordProtected ? STORED_SECRET : null;
  const customer = record.customerId === null ? null : (customers.get(record.customerId) ?? String(record.customerId));
  return { type: 'statusPage', key: record.slug, kind: 'page', customer, fields, id: record.id };
}

export function pageFromEntry(
  entry: StatusPageEntry,
  fileCustomer: string | null,
  where: () => string,
  whereField: (f: string) => string,
): Desired {
  const { slug, customer, ...rest } = entry;
  const fields: Record<string, unknown> = { ...rest };
  fields.groups = entry.groups.map((g) => ({
    name: g.name,
    components: g.components.map(({ name, ...ref }: ComponentRef) => ({ ...ref, ...(name ? { name } : {}) })),
  }));
  return { type: 'statusPage', key: slug, kind: 'page', customer: customer ?? fileCustomer, fields, where, whereField };
}

/** The page's entry; a password the service keeps is written as a reference. */
export function entryOfPage(actual: Actual, fileCustomer: string | null): Record<string, unknown> {
  const { password, ...fields } = actual.fields;
  return {
    slug: actual.key,
    ...(actual.customer !== fileCustomer ? { customer: actual.customer } : {}),
    ...fields,
    ...(password === STORED_SECRET ? { password: envRef(envName('STATUS_PAGE', actual.key, 'PASSWORD')) } : {}),
  };
}

/** A monitor named in the file, as the API takes it: its publicId (a key neither the service nor apply knows is refused). */
function monitorId(ref: string, ids: MonitorIds): string {
  const id = ids.get(ref);
  if (!id) throw new Error(`no monitor with key ${JSON.stringify(ref)} on the service or in the file`);
  return id;
}

/** Targets as the API takes them: `{ type, id }`. */
export const targetsForApi = (targets: readonly TargetRef[], ids: MonitorIds) =>
  targets.map((t) => {
    const [[type, ref]] = Object.entries(t) as [[string, string]];
    return type === 'monitor' ? { type, id: monitorId(ref, ids) } : { type, id: ref };
  });

/** Groups as the API takes them: components `{ type, id, name }`. */
export const groupsForApi = (groups: ReadonlyArray<{ name: string; components: ComponentRef[] }>, ids: MonitorIds) =>
  groups.map((g) => ({
    name: g.name,
    components: g.components.map(({ name, ...ref }) => {
      const [[type, id]] = Object.entries(ref) as [[string, string]];
      return { type, id: type === 'monitor' ? monitorId(id, ids) : id, name: name ?? null };
    }),
  }));
