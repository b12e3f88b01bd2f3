import { z } from 'zod';
import { CreateMonitor } from '../../../application/monitoring/create-monitor';
import { DeleteMonitor } from '../../../application/monitoring/delete-monitor';
import { FileChangeRequest } from '../../../application/monitoring/file-change-request';
import { GetMonitor } from '../../../application/monitoring/get-monitor';
import { ListMonitors } from '../../../application/monitoring/list-monitors';
import { UpdateMonitor } from '../../../application/monitoring/update-monitor';
import { kindOf, PER_KIND_TYPES } from '../../../domain/monitoring/kinds';
import type { ErrorCode } from '../../../domain/shared/error-codes';
import { ApiRouter } from '../shared/api-router';
import { paged, pagedSchema } from '../shared/paging';
import { defineRouter } from '../shared/router-deps';
import { CHANGE_REQUEST_DESCRIPTION, CHANGE_REQUEST_ERRORS, changeRequestBody } from './change-request.schemas';
import { DEPENDENCY_ERRORS, MONITOR_CREATE_ERRORS } from './fields';
import { MonitorQuery, monitorBodies, pascalKind } from './monitor.schemas';
import { presentChangeRequest, presentMonitor } from './presenters';
import { ChangeRequestSchema, MonitorSchema, SuccessSchema } from './response.schemas';

const Id = z.object({ id: z.string().min(1).max(64) });

/**
 * Per-kind monitors under /api/monitors/{type}, shaped like websites: list, create, read, partial
 * update, delete, change requests. Credentials a protocol check needs are write-only.
 */
export const monitorsRouter = defineRouter(
  {
    listMonitors: ListMonitors,
    createMonitor: CreateMonitor,
    getMonitor: GetMonitor,
    updateMonitor: UpdateMonitor,
    deleteMonitor: DeleteMonitor,
    fileChangeRequest: FileChangeRequest,
  },
  (deps, use) => {
    const router = new ApiRouter(deps);
    for (const type of PER_KIND_TYPES) {
      const tags = ['Monitors'] as const;
      const base = `/api/monitors/${type}`;
      const kind = kindOf(type);
      const name = `${pascalKind(type)}Monitor`;
      const bodies = monitorBodies(type);
      const targetErrors: ErrorCode[] = [
        'invalidHostname',
        ...(kind.port === 'required' || kind.service?.tcpNeedsPort ? ['portRequiredForTcp' as const] : []),
      ];
      const description = kind.service
        ? `${kind.notes} Credentials are stored encrypted and never returned; hasCredentials tells whether any are set. tcp checkMode stores none.`
        : kind.notes;
      router
        .route({
          operationId: `list${name}s`,
          method: 'get',
          path: base,
          tags,
          summary: `A page of ${type} monitors`,
          query: MonitorQuery,
          description: "Ordered by id; customer-scoped callers see their customer's only.",
          response: pagedSchema(MonitorSchema, `${type}MonitorPage`),
          handler: async ({ actor, query }) => {
            const { page, perPage, ...filter } = query;
            const result = await use.listMonitors.execute(actor, { kind: type, filter, page: { page, perPage } });
            return paged(result.items.map(presentMonitor), result.total, { page, perPage });
          },
        })
        .route({
          operationId: `create${name}`,
          method: 'post',
          path: base,
          tags,
          status: 201,
          summary: `Create a ${type} monitor`,
          description,
          body: bodies.create,
          response: MonitorSchema,
          errors: [...MONITOR_CREATE_ERRORS, ...targetErrors],
          handler: async ({ actor, body }) => {
            const monitor = await use.createMonitor.execute(actor, { kind: type, input: body });
            return presentMonitor(await use.getMonitor.execute(actor, { kind: type, ref: monitor.publicId }));
          },
        })
        .route({
          operationId: `get${name}`,
          method: 'get',
          path: `${base}/{id}`,
          tags,
          summary: `One ${type} monitor`,
          params: Id,
          response: MonitorSchema,
          errors: ['monitorNotFound'],
          handler: async ({ actor, params }) => presentMonitor(await use.getMonitor.execute(actor, { kind: type, ref: params.id })),
        })
        .route({
          operationId: `update${name}`,
          method: 'patch',
          path: `${base}/{id}`,
          tags,
          summary: `Change a ${type} monitor (partial)`,
          params: Id,
          description,
          body: bodies.patch,
          response: MonitorSchema,
          errors: [
            'monitorNotFound',
            'roleForbidden',
            'managed_by_organization',
            'managementTypeOrgOnly',
            'selfServiceQuotaReached',
            'invalidCheckInterval',
            'checkIntervalTooHigh',
            'checkIntervalTooLow',
            'invalidTimeout',
            'invalidCheckMode',
            ...targetErrors,
            ...DEPENDENCY_ERRORS,
            'monitorKeyTaken',
            'conflict',
          ],
          handler: async ({ actor, params, body }) => {
            const monitor = await use.updateMonitor.execute(actor, { kind: type, ref: params.id, input: body });
            return presentMonitor(await use.getMonitor.execute(actor, { kind: type, ref: monitor.publicId }));
          },
        })
        .route({
          operationId: `delete${name}`,
          method: 'delete',
          path: `${base}/{id}`,
          tags,
          summary: `Delete a ${type} monitor`,
          params: Id,
          response: SuccessSchema,
          errors: ['monitorNotFound', 'readonlyMayNotDelete', 'roleForbidden', 'managed_by_organization'],
          handler: async ({ actor, params }) => {
            await use.deleteMonitor.execute(actor, { kind: type, ref: params.id });
            return { success: true as const };
          },
        })
        .route({
          operationId: `create${name}ChangeRequest`,
          method: 'post',
          path: `${base}/{id}/change-requests`,
          tags: ['Change requests'],
          status: 201,
          summary: `Propose a change to (or the deletion of) a ${type} monitor`,
          description: CHANGE_REQUEST_DESCRIPTION,
          params: Id,
          body: changeRequestBody(bodies.patch, `${type}ChangeRequestCreate`),
          response: ChangeRequestSchema,
          errors: ['monitorNotFound', ...CHANGE_REQUEST_ERRORS, 'invalidCheckMode', ...targetErrors],
          handler: async ({ actor, params, body }) =>
            presentChangeRequest(
              await use.fileChangeRequest.execute(actor, {
                kind: type,
                ref: params.id,
                action: body.action,
                changes: body.changes,
                note: body.note,
              }),
            ),
        });
    }
    return router.router;
  },
);
