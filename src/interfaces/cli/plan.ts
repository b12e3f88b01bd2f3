import { hasEnvRef } from './env-refs';
import { type Actual, type Desired, type ResourceType, STORED_SECRET, WRITE_ONLY } from './resources';

/**
 * The diff between the file and the service, field by field: what to create, what to change
 * (each field before and after) and, with prune, what to delete. Pure: values are resolved by the
 * caller's `resolve` (environment references), which throws for a missing variable.
 */
export interface FieldChange {
  readonly field: string;
  readonly before: unknown;
  readonly after: unknown;
  /** Set when either side must not be printed (a reference, a stored secret). */
  readonly secret: boolean;
}

export interface Change {
  readonly action: 'create' | 'update' | 'delete';
  readonly type: ResourceType;
  readonly key: string;
  readonly kind: string;
  readonly customer: string | null;
  readonly desired?: Desired;
  readonly actual?: Actual;
  readonly fields: readonly FieldChange[];
}

/** A file entry that cannot be reconciled with the service's resource of the same key. */
export class PlanError extends Error {}

export interface PlanOptions {
  readonly prune: boolean;
  /** Only the service's resources of this customer are compared and pruned (the file's `customer`). */
  readonly customer: string | null;
  /** The entry value with its references resolved. */
  readonly resolve: (value: unknown, desired: Desired, field: string) => unknown;
}

/** Order of work: what others reference first (tags before the monitors carrying them); deletes the other way round. */
const ORDER: readonly ResourceType[] = ['tag', 'channel', 'customField', 'monitor', 'maintenanceWindow', 'statusPage'];

/** A window belongs to the customer its targets belong to: the service decides it, so it is not compared. */
const OWNER_DERIVED: ReadonlySet<ResourceType> = new Set(['maintenanceWindow']);

export const identityOf = (r: { type: ResourceType; key: string; customer: string | null }) =>
  r.type === 'tag' ? `tag:${r.customer ?? '*'}:${r.key.toLowerCase()}` : `${r.type}:${r.key}`;

export function planChanges(desired: readonly Desired[], actual: readonly Actual[], options: PlanOptions): Change[] {
  const inScope = options.customer === null ? actual : actual.filter((a) => a.customer === options.customer);
  const byKey = new Map<string, Actual>();
  for (const a of inScope) {
    byKey.set(identityOf(a), a);
    if (a.type !== 'tag') byKey.set(`${a.type}:${a.id}`, a);
  }
  const matched = new Set<Actual>();
  const writes: Change[] = [];
  for (const d of desired) {
    const a = byKey.get(identityOf(d));
    if (!a) {
      writes.push({
        action: 'create',
        type: d.type,
        key: d.key,
        kind: d.kind,
        customer: d.customer,
        desired: d,
        fields: creation(d, options),
      });
      continue;
    }
    if (matched.has(a)) throw new PlanError(`${d.where()}: ${d.type} ${d.key} names the same ${d.type} as another entry`);
    matched.add(a);
    if (a.type === 'monitor' && a.kind !== d.kind)
      throw new PlanError(
        `${d.where()}: ${d.type} ${d.key} is a ${a.kind} monitor on the service: a monitor cannot change kind (give it a new key)`,
      );
    if (a.customer !== d.customer && !OWNER_DERIVED.has(d.type))
      throw new PlanError(
        `${d.where()}: ${d.type} ${d.key} belongs to customer ${a.customer} on the service: it cannot move (give it a new key)`,
      );
    const fields = differences(d, a, options);
    if (fields.length > 0)
      writes.push({ action: 'update', type: d.type, key: d.key, kind: d.kind, customer: d.customer, desired: d, actual: a, fields });
  }
  const deletes = options.prune
    ? inScope
        .filter((a) => !matched.has(a))
        .map((a): Change => ({ action: 'delete', type: a.type, key: a.key, kind: a.kind, customer: a.customer, actual: a, fields: [] }))
    : [];
  const rank = (c: Change) => ORDER.indexOf(c.type);
  return [...writes.sort((x, y) => rank(x) - rank(y)), ...deletes.sort((x, y) => rank(y) - rank(x))];
}

function creation(d: Desired, options: PlanOptions): FieldChange[] {
  return Object.entries(d.fields).map(([field, value]) => {
    const secret = WRITE_ONLY.has(field) || hasEnvRef(value);
    if (hasEnvRef(value)) options.resolve(value, d, field);
    return { field, before: undefined, after: value, secret };
  });
}

/** The fields the entry names that differ from the service's (fields the entry omits are left as they are). */
export function differences(d: Desired, a: Actual, options: PlanOptions): FieldChange[] {
  const changes: FieldChange[] = [];
  // for-in over the entry's own plain object: no [field, value] pair allocated per field.
  for (const field in d.fields) {
    const value = d.fields[field];
    if (value === undefined) continue;
    const before = a.fields[field];
    if (WRITE_ONLY.has(field)) {
      const change = writeOnlyChange(field, value, before);
      if (change && hasEnvRef(value)) options.resolve(value, d, field);
      if (change) changes.push(change);
      continue;
    }
    const secret = hasEnvRef(value);
    const after = secret ? options.resolve(value, d, field) : value;
    if (!same(field, after, before)) changes.push({ field, before, after: secret ? value : after, secret });
  }
  return changes;
}

/** Credentials and chain secrets: set or not (and which names), never compared by value. */
function writeOnlyChange(field: string, value: unknown, before: unknown): FieldChange | null {
  const setBefore = before !== undefined && before !== null;
  if (value === null) return setBefore ? { field, before: STORED_SECRET, after: null, secret: true } : null;
  if (!setBefore) return { field, before: null, after: value, secret: true };
  if (field === 'secrets' && !sameJson(Object.keys(value as object).sort(), Object.keys(before as object).sort()))
    return { field, before, after: value, secret: true };
  return null;
}

function same(field: string, after: unknown, before: unknown): boolean {
  if (field === 'tags') return sameNames(after, before ?? []) || sameJson(lower(after), lower(before ?? []));
  if (field === 'color' && typeof after === 'string' && typeof before === 'string') return after.toLowerCase() === before.toLowerCase();
  return sameJson(after ?? null, before ?? null);
}

/** Both sides' tags come sorted by their lower-case names: equal in order needs no copy (else `lower` decides). */
function sameNames(after: unknown, before: unknown): boolean {
  if (!Array.isArray(after) || !Array.isArray(before) || after.length !== before.length) return false;
  for (let i = 0; i < after.length; i += 1) {
    const [a, b] = [after[i], before[i]];
    if (a !== b && (typeof a !== 'string' || typeof b !== 'string' || a.toLowerCase() !== b.toLowerCase())) return false;
  }
  return true;
}

const lower = (names: unknown) => (Array.isArray(names) ? names.map((n) => String(n).toLowerCase()).sort() : names);

/**
 * Equality of JSON values (what files and API records hold): primitives by identity, arrays in
 * order, objects by their keys whatever their order. A plan compares every field of every entry,
 * so this stays a plain walk (several times faster than util.isDeepStrictEqual on such values).
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys)
    if (!Object.hasOwn(b, key) || !sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  return true;
}
