import { z } from 'zod';
import { CreateMaintenanceWindow } from '../../../application/maintenance/create-maintenance-window';
import { ListMaintenanceWindows } from '../../../application/maintenance/list-maintenance-windows';
import { GetMaintenanceWindow } from '../../../application/maintenance/get-maintenance-window';
import { UpdateMaintenanceWindow } from '../../../application/maintenance/update-maintenance-window';
import { DeleteMaintenanceWindow } from '../../../application/maintenance/delete-maintenance-window';
import { CheckMaintenance } from '../../../application/maintenance/check-maintenance';
import { CheckMaintenanceBatch } from '../../../application/maintenance/check-maintenance-batch';
import { PreviewOccurrences } from '../../../application/maintenance/preview-occurrences';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import {
  CheckBatchBody,
  CheckQuery,
  CreateWindowBody,
  IdParams,
  ListQuery,
  MaintenanceCheckSchema,
  MaintenanceWindowSchema,
  OccurrenceSchema,
  PreviewBody,
  UpdateWindowBody,
  WebsiteParams,
} from './schemas';
import { presentCheck, presentOccurrence, presentWindow } from './presenters';
import { PageQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['Maintenance windows'] as const;
const SCOPE_NOTE =
  "Customer-scoped callers see and manage only their customer's windows (those whose targets all belong " +
  'to it); any other answers 404 maintenanceWindowNotFound, as a missing one does.';

/** Maintenance windows: planned spans (once or by RRULE in a time zone) that silence alerts of the monitors they cover. */
export const maintenanceWindowsRouter = defineRouter(
  {
    listMaintenanceWindows: ListMaintenanceWindows,
    createMaintenanceWindow: CreateMaintenanceWindow,
    previewOccurrences: PreviewOccurrences,
    checkMaintenanceBatch: CheckMaintenanceBatch,
    checkMaintenance: CheckMaintenance,
    getMaintenanceWindow: GetMaintenanceWindow,
    updateMaintenanceWindow: UpdateMaintenanceWindow,
    deleteMaintenanceWindow: DeleteMaintenanceWindow,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listMaintenanceWindows',
        method: 'get',
        path: '/api/maintenance-windows',
        tags,
        summary: 'List maintenance windows',
        description: `Newest start first. websiteId narrows the list to windows covering that website, directly or through its customer. ${SCOPE_NOTE}`,
        query: ListQuery.extend(PageQuery),
        response: pagedSchema(MaintenanceWindowSchema, 'MaintenanceWindowPage'),
        errors: ['websiteNotFound'],
        handler: async ({ actor, query: { page, perPage, ...query } }) =>
          pageOf((await use.listMaintenanceWindows.execute(actor, query)).map(presentWindow), { page, perPage }),
      })
      .route({
        operationId: 'createMaintenanceWindow',
        method: 'post',
        path: '/api/maintenance-windows',
        tags,
        status: 201,
        summary: 'Schedule a maintenance window',
        description:
          'One span (startTime to endTime), or a series when rrule is set: an RFC 5545 RRULE evaluated in timezone ' +
          '(IANA), whose first start is startTime; every occurrence lasts endTime - startTime, and a weekly 02:00 stays at 02:00 ' +
          'local time across daylight-saving changes. Targets name monitors (`website`/`monitor`), whole customers (every ' +
          'monitor of the customer), customer IPs or customer domains by id. While an occurrence runs, checks still run and ' +
          'are recorded; with suppressAlerts (default true) no incident opens and no reminder goes out, and with ' +
          'excludeFromUptime the span is left out of uptime figures. The window is announced (maintenance.scheduled) and each ' +
          "occurrence's start and end too (maintenance.started, maintenance.ended) to the notification channels. A body equal " +
          "to an existing window of the caller's scope answers that window and announces nothing. Editors and admins.",
        body: CreateWindowBody,
        response: MaintenanceWindowSchema,
        errors: [
          'endTimeBeforeStartTime',
          'missingTargetId',
          'websiteNotFound',
          'monitorNotFound',
          'customerNotFound',
          'customerIpNotFound',
          'customerDomainNotFound',
          'maintenanceWindowKeyTaken',
          'roleForbidden',
        ],
        handler: async ({ actor, body }) => presentWindow((await use.createMaintenanceWindow.execute(actor, body)).view),
      })
      .route({
        operationId: 'previewMaintenanceOccurrences',
        method: 'post',
        path: '/api/maintenance-windows/preview-occurrences',
        tags,
        summary: 'Preview the occurrences of a window',
        description:
          'The spans a window with these times, zone and rule would have, before saving it: up to count (default 10, ' +
          'at most 100) occurrences ending after from (default startTime), within five years. Nothing is stored.',
        body: PreviewBody,
        response: z.object({ occurrences: z.array(OccurrenceSchema) }),
        errors: ['invalidWindow'],
        handler: async ({ body }) => ({ occurrences: use.previewOccurrences.execute(body).map(presentOccurrence) }),
      })
      .route({
        operationId: 'checkMaintenanceBatch',
        method: 'post',
        path: '/api/maintenance-windows/check/batch',
        tags,
        summary: 'Whether many websites are in maintenance',
        description: 'Up to 500 websites at an instant (default now). Ids the caller cannot see are listed in notFound.',
        body: CheckBatchBody,
        response: z.object({ results: z.array(MaintenanceCheckSchema), notFound: z.array(z.string()) }),
        handler: async ({ actor, body }) => {
          const { results, notFound } = await use.checkMaintenanceBatch.execute(actor, body);
          return { results: results.map(presentCheck), notFound };
        },
      })
      .route({
        operationId: 'checkMaintenance',
        method: 'get',
        path: '/api/maintenance-windows/check/{websiteId}',
        tags,
        summary: 'Whether a website is in maintenance',
        description:
          'At an instant (default now): the running occurrences of the windows covering the website, and whether ' +
          'they suppress alerts or exclude the time from uptime.',
        params: WebsiteParams,
        query: CheckQuery,
        response: MaintenanceCheckSchema,
        errors: ['websiteNotFound'],
        handler: async ({ actor, params, query }) =>
          presentCheck(await use.checkMaintenance.execute(actor, { websiteId: params.websiteId, at: query.at })),
      })
      .route({
        operationId: 'getMaintenanceWindow',
        method: 'get',
        path: '/api/maintenance-windows/{id}',
        tags,
        summary: 'Get a maintenance window',
        description:
          `${SCOPE_NOTE} A window whose target was deleted answers 500 maintenanceWindowTargetMissing: retrying does ` +
          'not help; change its targets or delete it.',
        params: IdParams,
        response: MaintenanceWindowSchema,
        errors: ['maintenanceWindowNotFound', 'maintenanceWindowTargetMissing'],
        handler: async ({ actor, params }) => presentWindow(await use.getMaintenanceWindow.execute(actor, params)),
      })
      .route({
        operationId: 'updateMaintenanceWindow',
        method: 'patch',
        path: '/api/maintenance-windows/{id}',
        tags,
        summary: 'Change a maintenance window',
        description: `Any of the create fields; targets, when sent, replace all targets. endTime must stay after startTime. ${SCOPE_NOTE}`,
        params: IdParams,
        body: UpdateWindowBody,
        response: MaintenanceWindowSchema,
        errors: [
          'maintenanceWindowNotFound',
          'endTimeBeforeStartTime',
          'missingTargetId',
          'websiteNotFound',
          'monitorNotFound',
          'customerNotFound',
          'customerIpNotFound',
          'customerDomainNotFound',
          'maintenanceWindowTargetMissing',
          'maintenanceWindowKeyTaken',
          'conflict',
          'roleForbidden',
        ],
        handler: async ({ actor, params, body }) =>
          presentWindow(await use.updateMaintenanceWindow.execute(actor, { id: params.id, change: body })),
      })
      .route({
        operationId: 'deleteMaintenanceWindow',
        method: 'delete',
        path: '/api/maintenance-windows/{id}',
        tags,
        summary: 'Delete a maintenance window',
        description: `Also the way out for a window that lost its target. ${SCOPE_NOTE}`,
        params: IdParams,
        response: z.object({ success: z.literal(true), id: z.uuid() }),
        errors: ['maintenanceWindowNotFound', 'roleForbidden'],
        handler: async ({ actor, params }) => ({
          success: true as const,
          id: (await use.deleteMaintenanceWindow.execute(actor, params)).publicId,
        }),
      }).router;
  },
);
