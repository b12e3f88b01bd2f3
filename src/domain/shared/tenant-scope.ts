/**
 * What a caller may see. Every repository method takes one, so an unscoped query cannot be written.
 * customerId set = the caller is confined to that one customer of the organization.
 */
export interface TenantScope {
  readonly organizationId: number;
  readonly customerId: number | null;
}

export const organizationScope = (organizationId: number): TenantScope => ({ organizationId, customerId: null });

export const isCustomerScoped = (scope: TenantScope): boolean => scope.customerId !== null;
