import { z } from 'zod';
import type { ErrorCode } from '../../../domain/shared/error-codes';
import type { ImRouteTarget, ImRoutingSetting } from '../../../domain/incident-management/monitor-routing';
import {
  GetCustomerImRouting,
  GetMonitorImRouting,
  SetCustomerImRouting,
  SetMonitorImRouting,
  type CustomerImRouting,
  type MonitorImRouting,
} from '../../../application/incident-management/manage-im-routing';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { IM_GATE_ERRORS } from './im-incidents.router';

const tags = ['IM routing'] as const;
const VALIDATION: ErrorCode[] = ['invalidTeamId', 'imRoutingInvalidPolicyId'];

const SettingBody = z
  .object({
    enabled: z.boolean().meta({ description: 'Whether automatic incidents open IM incidents' }),
    teamId: z.string().trim().min(1).max(64).nullable().optional().meta({ description: 'Team of the IM incidents (invalidTeamId)' }),
    escalationPolicyId: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .nullable()
      .optional()
      .meta({ description: 'Escalation policy that pages for them (imRoutingInvalidPolicyId)' }),
  })
  .strict()
  .meta({ id: 'ImRoutingSettingInput' });
const SettingSchema = z
  .object({
    enabled: z.boolean(),
    teamId: z.string().nullable(),
    escalationPolicyId: z.string().nullable(),
  })
  .meta({ id: 'ImRoutingSetting' });
const RouteSchema = z.object({ teamId: z.string().nullable(), escalationPolicyId: z.string().nullable() }).meta({ id: 'ImRouteTarget' });
const CustomerRoutingSchema = z.object({ customerId: z.number().int(), ...SettingSchema.shape }).meta({ id: 'CustomerImRouting' });
const MonitorRoutingSchema = z
  .object({
    monitorId: z.string().meta({ description: 'publicId of the monitor' }),
    override: SettingSchema.nullable().meta({ description: "The monitor's own setting; null: it inherits its customer's" }),
    customer: SettingSchema.meta({ description: "The customer's setting (off when never set)" }),
    effective: RouteSchema.nullable().meta({ description: 'Where its automatic incidents go now; null: not routed' }),
  })
  .meta({ id: 'MonitorImRouting' });
const MonitorBody = z
  .object({
    override: SettingBody.nullable().meta({ description: "null removes the override (inherit the customer's setting)" }),
  })
  .strict()
  .meta({ id: 'MonitorImRoutingInput' });
const CustomerParams = z.object({ customerId: z.string().trim().min(1).max(64).meta({ description: 'id or publicId' }) });
const MonitorParams = z.object({ monitorId: z.string().trim().min(1).max(64).meta({ description: 'id or publicId' }) });

const setting = (s: ImRoutingSetting) => ({ enabled: s.enabled, teamId: s.teamId, escalationPolicyId: s.escalationPolicyId });
const route = (r: ImRouteTarget | null) => (r ? { teamId: r.teamId, escalationPolicyId: r.escalationPolicyId } : null);
const presentCustomer = (r: CustomerImRouting) => ({ customerId: r.customerId, ...setting(r.setting) });
const presentMonitor = (r: MonitorImRouting) => ({
  monitorId: r.monitor.publicId,
  override: r.override ? setting(r.override) : null,
  customer: setting(r.customer),
  effective: route(r.effective),
});

const ROUTING_NOTE =
  "When a routed monitor's automatic incident opens, an IM incident opens with it (dedup key " +
  '`monitor:<monitorPublicId>:<incidentPublicId>`, monitorOrigin naming both) and its escalation policy starts paging; ' +
  'when the automatic incident resolves, the IM incident resolves too if it is still open.';

/** Routing of the check engine's automatic incidents into incident management. */
export const imRoutingRouter = defineRouter(
  {
    getCustomerImRouting: GetCustomerImRouting,
    setCustomerImRouting: SetCustomerImRouting,
    getMonitorImRouting: GetMonitorImRouting,
    setMonitorImRouting: SetMonitorImRouting,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'getCustomerImRouting',
        method: 'get',
        path: '/api/im/routing/customers/{customerId}',
        tags,
        summary: "A customer's IM routing",
        description: "The default of the customer's monitors (off until set).",
        params: CustomerParams,
        response: CustomerRoutingSchema,
        errors: [...IM_GATE_ERRORS, 'customerNotFound'],
        handler: async ({ actor, params }) => presentCustomer(await use.getCustomerImRouting.execute(actor, params.customerId)),
      })
      .route({
        operationId: 'setCustomerImRouting',
        method: 'put',
        path: '/api/im/routing/customers/{customerId}',
        tags,
        summary: "Set a customer's IM routing",
        description: `${ROUTING_NOTE} Team and policy must be the organization's. Admins and editors (responders: roleForbidden).`,
        params: CustomerParams,
        body: SettingBody,
        response: CustomerRoutingSchema,
        errors: [...IM_GATE_ERRORS, 'customerNotFound', 'roleForbidden', ...VALIDATION],
        handler: async ({ actor, params, body }) => presentCustomer(await use.setCustomerImRouting.execute(actor, params.customerId, body)),
      })
      .route({
        operationId: 'getMonitorImRouting',
        method: 'get',
        path: '/api/im/routing/monitors/{monitorId}',
        tags,
        summary: "A monitor's IM routing",
        description: "Its override, its customer's default, and the route that results.",
        params: MonitorParams,
        response: MonitorRoutingSchema,
        errors: [...IM_GATE_ERRORS, 'monitorNotFound'],
        handler: async ({ actor, params }) => presentMonitor(await use.getMonitorImRouting.execute(actor, params.monitorId)),
      })
      .route({
        operationId: 'setMonitorImRouting',
        method: 'put',
        path: '/api/im/routing/monitors/{monitorId}',
        tags,
        summary: "Override a monitor's IM routing",
        description:
          `An override is explicitly off, or explicitly on with its own team and policy (taken whole, nothing borrowed ` +
          `from the customer); null inherits the customer's setting again. Admins and editors (responders: roleForbidden). ${ROUTING_NOTE}`,
        params: MonitorParams,
        body: MonitorBody,
        response: MonitorRoutingSchema,
        errors: [...IM_GATE_ERRORS, 'monitorNotFound', 'roleForbidden', ...VALIDATION],
        handler: async ({ actor, params, body }) =>
          presentMonitor(await use.setMonitorImRouting.execute(actor, params.monitorId, body.override)),
      });
  },
);
