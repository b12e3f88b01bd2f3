import { AppError } from '../shared/app-error';

/** The fixed palette tags are coloured from (case-insensitive on input, stored uppercase). */
export const TAG_COLORS = [
  '#6B7280', '#EF4444', '#F97316', '#F59E0B', '#84CC16', '#10B981', '#14B8A6', '#06B6D4', '#3B82F6', '#6366F1',
  '#8B5CF6', '#EC4899',
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

/** A tag labels monitors of its own customer in its own organization. */
export function assertSameOwner(
  tag: { organizationId: number; customerId: number }, monitor: { organizationId: number; customerId: number },
): void {
  if (tag.organizationId !== monitor.organizationId || tag.customerId !== monitor.customerId) {
    throw new AppError('tagMonitorOrgMismatch');
  }
}

/**
 * The customer a new tag belongs to: a customer-scoped caller's own customer (naming another is
 * invalidCustomer); otherwise the one named, which must be of the organization (invalidCustomer),
 * or the organization's only customer; with several customers and none named, tagCustomerRequired.
 */
export function tagCustomer(
  scopeCustomerId: number | null, requested: { id: number; inOrganization: boolean } | null, soleCustomerId: number | null,
): number {
  if (requested !== null && !requested.inOrganization) throw new AppError('invalidCustomer');
  if (scopeCustomerId !== null) {
    if (requested !== null && requested.id !== scopeCustomerId) throw new AppError('invalidCustomer');
    return scopeCustomerId;
  }
  if (requested !== null) return requested.id;
  if (soleCustomerId !== null) return soleCustomerId;
  throw new AppError('tagCustomerRequired');
}

export class Tag {
  id!: number;
  publicId: string;
  organizationId: number;
  customerId: number;
  name: string;
  color: string;
  createdAt: Date;
  updatedAt: Date;

  constructor(props: { publicId: string; organizationId: number; customerId: number; name: string; color: string; now: Date }) {
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
