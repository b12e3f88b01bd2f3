import type { Role } from './role';

/** Who is acting, as far as the role rules care: a role, and whether the caller is confined to one customer. */
export interface Principal {
  readonly role: Role;
  /** Confined to one customer (a customer-bound user or a customer-scoped token). */
  readonly customerScoped: boolean;
}

type Rule = (principal: Principal) => boolean;

const everyone: Rule = () => true;
/** Admins and editors: they change monitors, channels and the like in their scope. */
const writer: Rule = ({ role }) => role === 'admin' || role === 'editor';
/** Writers and responders: those who work on incidents. */
const responder: Rule = (principal) => writer(principal) || principal.role === 'responder';
/** Writers of the whole organization (not confined to one customer). */
const organizationWriter: Rule = (principal) => writer(principal) && !principal.customerScoped;
/** Admins of the whole organization. */
const organizationAdmin: Rule = ({ role, customerScoped }) => role === 'admin' && !customerScoped;
/** Those incident management serves: organization-wide admins, editors and responders (its gate: incident-management-access.ts). */
const incidentManagementUser: Rule = (principal) => responder(principal) && !principal.customerScoped;
/** Admins, those of a customer included. */
const admin: Rule = ({ role }) => role === 'admin';

/**
 * The role gates: every act a role decides, once. The use cases enforce these (`requireAction`), the
 * session answers them (`can` of `GET /api/auth/get-session`), the MCP tool list and the CLI read
 * them. An act is `<resource>.<verb>`; a new one is a line here, then `requireAction` in its use case.
 * Rules about the record itself (a managed monitor, a resolved incident) still refuse on their own.
 */
export const PERMISSIONS = {
  'monitor.create': writer,
  'monitor.update': writer,
  'monitor.delete': writer,
  /** "Check now" changes no configuration: every role of the scope may ask for it. */
  'monitor.check': everyone,
  'monitor.changeManagementType': organizationAdmin,
  /** Approving or rejecting a customer's change request is the organization's; withdrawing one is its writer's. */
  'changeRequest.settle': organizationWriter,
  'changeRequest.cancel': writer,
  'incident.create': writer,
  'incident.acknowledge': responder,
  'incident.postUpdate': responder,
  'incident.resolve': writer,
  'incident.delete': writer,
  'channel.create': writer,
  'channel.update': writer,
  'channel.delete': writer,
  'channel.test': writer,
  'alert.send': writer,
  /** "Escalate now" on an incident of incident management: whoever works on its incidents (team membership still applies). */
  'imIncident.escalate': incidentManagementUser,
  'escalationPolicy.create': writer,
  'escalationPolicy.update': writer,
  'escalationPolicy.delete': writer,
  'incidentRouting.update': writer,
  'maintenanceWindow.create': writer,
  'maintenanceWindow.update': writer,
  'maintenanceWindow.delete': writer,
  'statusPage.create': writer,
  'statusPage.update': writer,
  'statusPage.delete': writer,
  'statusPage.manageSubscribers': writer,
  'statusPage.postIncident': writer,
  'customDomain.manage': writer,
  'whiteLabel.manage': organizationAdmin,
  'report.create': writer,
  'report.update': writer,
  'report.delete': writer,
  'report.run': writer,
  'serviceLevel.create': writer,
  'serviceLevel.update': writer,
  'serviceLevel.delete': writer,
  'customer.create': organizationWriter,
  'customer.update': writer,
  /** The terms the organization sets on a customer (status, package, self-service, pricing, custom fields). */
  'customer.setTerms': organizationWriter,
  'customer.delete': writer,
  'location.manage': organizationAdmin,
  'customField.manage': organizationAdmin,
  'packageConfig.manage': organizationAdmin,
  'user.manage': organizationAdmin,
  'invitation.manage': organizationAdmin,
  'organization.update': organizationAdmin,
  'dataExport.request': organizationAdmin,
  'smtp.manage': organizationAdmin,
  'sso.manage': organizationAdmin,
  'auditLog.read': admin,
  /** Platform administrators too (billing-access.ts). */
  'billing.manage': organizationAdmin,
} as const satisfies Record<string, Rule>;

export type ActionName = keyof typeof PERMISSIONS;

export const ACTION_NAMES = Object.keys(PERMISSIONS) as ActionName[];

export const isActionName = (value: unknown): value is ActionName => typeof value === 'string' && Object.hasOwn(PERMISSIONS, value);

export const isPermitted = (principal: Principal, action: ActionName): boolean => PERMISSIONS[action](principal);

/** The resources the table names, in its order (`monitor`, `incident`, ...). */
export const RESOURCES = [...new Set(ACTION_NAMES.map((action) => action.split('.')[0]!))];

/** What the principal may do, per resource: `{ monitor: { create: true, delete: false, ... }, ... }`. */
export function permissionsOf(principal: Principal): Record<string, Record<string, boolean>> {
  const answer: Record<string, Record<string, boolean>> = {};
  for (const action of ACTION_NAMES) {
    const [resource, verb] = action.split('.') as [string, string];
    (answer[resource] ??= {})[verb] = isPermitted(principal, action);
  }
  return answer;
}
