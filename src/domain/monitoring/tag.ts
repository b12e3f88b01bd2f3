import { AppError } from '../shared/app-error';

/** The fixed palette tags are coloured from (case-insensitive on input, stored uppercase). */
export const TAG_COLORS = [
  '#6B7280',
  '#EF4444',
  '#F97316',
  '#F59E0B',
  '#84CC16',
  '#10B981',
  '#14B8A6',
  '#06B6D4',
  '#3B82F6',
  '#6366F1',
  '#8B5CF6',
  '#EC4899',
] as const;
export const MAX_TAGS_PER_MONITOR = 5;

export function assertTagColor(value: string): string {
  const color = value.toUpperCase();
  if (!(TAG_COLORS as readonly string[]).includes(color)) throw new AppError('invalidTagColor', { palette: TAG_COLORS });
  return color;
}

/** Attaching an attached tag succeeds unchanged; a sixth tag answers tagLimitReached. */
export function assertTagRoom(attachedTagIds: readonly number[], tagId: number): 'attach' | 'alreadyAttached' {
  if (attachedTagIds.includes(tagId)) return 'alreadyAttached';
  if (attachedTagIds.length >= MAX_TAGS_PER_MONITOR) throw new AppError('tagLimitReached', { limit: MAX_TAGS_PER_MONITOR });
  return 'attach';
}

/**
 * A tag labels monitors of its own organization: an organization-wide tag (customerId null) any of
 * them, a customer's tag only that customer's.
 */
export function assertSameOwner(
  tag: { organizationId: number; customerId: number | null },
  monitor: { organizationId: number; customerId: number },
): void {
  if (tag.organizationId !== monitor.organizationId || (tag.customerId !== null && tag.customerId !== monitor.customerId)) {
    throw new AppError('tagMonitorOrgMismatch');
  }
}

/**
 * The customer a new tag belongs to, null for an organization-wide tag. A customer named must be of
 * the organization (invalidCustomer). A customer-scoped caller's tags are its own customer's (naming
 * another is invalidCustomer); it may omit the customer only while the organization has a single
 * one, else tagCustomerRequired. An organization-wide caller that names none makes an
 * organization-wide tag.
 */
export function tagCustomer(
  scopeCustomerId: number | null,
  requested: { id: number; inOrganization: boolean } | null,
  severalCustomers: boolean,
): number | null {
  if (requested !== null && !requested.inOrganization) throw new AppError('invalidCustomer');
  if (scopeCustomerId === null) return requested?.id ?? null;
  if (requested !== null && requested.id !== scopeCustomerId) throw new AppError('invalidCustomer');
  if (requested === null && severalCustomers) throw new AppError('tagCustomerRequired');
  return scopeCustomerId;
}

export class Tag {
  id!: number;
  publicId: string;
  organizationId: number;
  /** null: an organization-wide tag. */
  customerId: number | null;
  name: string;
  color: string;
  createdAt: Date;
  updatedAt: Date;
  /** Optimistic: a save from a stale copy answers conflict. */
  version = 1;

  constructor(props: { publicId: string; organizationId: number; customerId: number | null; name: string; color: string; now: Date }) {
    this.publicId = props.publicId;
    this.organizationId = props.organizationId;
    this.customerId = props.customerId;
    this.name = props.name;
    this.color = assertTagColor(props.color);
    this.createdAt = props.now;
    this.updatedAt = props.now;
  }

  update(change: { name?: string; color?: string }, now: Date): void {
    if (change.name !== undefined) this.name = change.name;
    if (change.color !== undefined) this.color = assertTagColor(change.color);
    this.updatedAt = now;
  }
}
