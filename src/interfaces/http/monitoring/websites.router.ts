import type { Response } from 'express';
import { z } from 'zod';
import type { Actor } from '../../../application/shared/actor';
import { CreateMonitor } from '../../../application/monitoring/create-monitor';
import { DeleteMonitor } from '../../../application/monitoring/delete-monitor';
import { FileChangeRequest } from '../../../application/monitoring/file-change-request';
import { ListWebsites } from '../../../application/monitoring/list-websites';
import { ShowWebsite } from '../../../application/monitoring/show-website';
import { UpdateMonitor } from '../../../application/monitoring/update-monitor';
import { UpdateWebsiteCheckConfig } from '../../../application/monitoring/update-website-check-config';
import type { ErrorCode } from '../../../domain/shared/error-codes';
import { ApiRouter } from '../shared/api-router';
import { pagedSchema } from '../shared/paging';
import { defineRouter } from '../shared/router-deps';
import { CHANGE_REQUEST_DESCRIPTION, CHANGE_REQUEST_ERRORS, changeRequestBody } from './change-request.schemas';
import { DEPENDENCY_ERRORS, MONITOR_CREATE_ERRORS } from './fields';
import { presentChangeRequest } from './presenters';
import { ChangeRequestSchema, CheckConfigSchema, SuccessSchema, WebsiteSchema } from './response.schemas';
import { CheckConfigPatchBody, WebsiteCreateBody, WebsitePatchBody, WebsiteQuery } from './website.schemas';

const tags = ['Websites'] as const;
const Id = z.object({ id: z.string().min(1).max(64) });
const WebsiteId = z.object({ websiteId: z.string().min(1).max(64) });
const TARGET_ERRORS: ErrorCode[] = ['invalidUrl', 'connectHostInvalid', 'connectHostNotPublic', 'connectTlsInsecureWithoutHost'];
const PATCH_ERRORS: ErrorCode[] = [
  'websiteNotFound',
  'roleForbidden',
  'managed_by_organization',
  'managementTypeOrgOnly',
  'selfServiceQuotaReached',
  'invalidCheckInterval',
  'checkIntervalTooHigh',
  'checkIntervalTooLow',
  'invalidTimeout',
  'invalidCheckConfig',
  ...TARGET_ERRORS,
  'monitorKeyTaken',
  'conflict',
  ...DEPENDENCY_ERRORS,
];

/** Websites: HTTP(S) page checks, heartbeats and scripted-browser scenarios. */
export const websitesRouter = defineRouter(
  {
    showWebsite: ShowWebsite,
    listWebsites: ListWebsites,
    createMonitor: CreateMonitor,
    updateMonitor: UpdateMonitor,
    deleteMonitor: DeleteMonitor,
    updateWebsiteCheckConfig: UpdateWebsiteCheckConfig,
    fileChangeRequest: FileChangeRequest,
  },
  (deps, use) => {
    /** Website records come rendered from the read model: sent as they are. */
    const send = (res: Response, status: number, json: string) => void res.status(status).type('application/json').send(json);
    const show = (actor: Actor, ref: string) => use.showWebsite.execute(actor, { ref });
    const strip = <T extends { heartbeatToken?: unknown }>({ heartbeatToken: _ignored, ...rest }: T) => rest;
    return new ApiRouter(deps)
      .route({
        operationId: 'listWebsites',
        method: 'get',
        path: '/api/websites',
        tags,
        summary: 'A page of websites',
        description:
          "Ordered by id. Customer-scoped callers see their customer's only. Filters: customerId, status, monitoringType, search (name or url), tagId.",
        query: WebsiteQuery,
        response: pagedSchema(WebsiteSchema, 'WebsitePage'),
        handler: async ({ actor, query, res }) => {
          const { page, perPage, ...filter } = query;
          send(res, 200, await use.listWebsites.execute(actor, { filter, page: { page, perPage } }));
        },
      })
      .route({
        operationId: 'createWebsite',
        method: 'post',
        path: '/api/websites',
        tags,
        status: 201,
        summary: 'Create a website monitor',
        description:
          'monitoringType http (page checks, url required), heartbeat (the service issues heartbeatToken and heartbeatUrl; ' +
          'a sent token is ignored; checkInterval is the expected ping period, up to 43200 minutes), scripted_browser (url and script: a step language, see script; failure screenshots at /api/websites/{id}/screenshots/{screenshotId}) ' +
          'or api_chain (steps: HTTP requests run in order with values extracted into later steps, and secrets by reference; url is the first ' +
          "step's origin; a step URL the service refuses is invalidUrl naming steps[i].url; the failing step is named in the result's message and " +
          'kept in evidence.apiChain). ' +
          'A checkInterval above the type ceiling is a validation issue on checkInterval; below the package minimum, checkIntervalTooLow. ' +
          'Quota: all monitor kinds of the customer count together (monitorQuotaReached, or an automatic move to the next tier when the ' +
          'organization allows it; agents must send allowPaidQuotaUpgrade: true to buy a paid tier).',
        body: WebsiteCreateBody,
        response: WebsiteSchema,
        errors: [...MONITOR_CREATE_ERRORS, 'invalidCheckConfig', ...TARGET_ERRORS],
        handler: async ({ actor, body, res }) => {
          const website = await use.createMonitor.execute(actor, { kind: 'website', input: strip(body) });
          send(res, 201, await show(actor, website.publicId));
        },
      })
      .route({
        operationId: 'getWebsite',
        method: 'get',
        path: '/api/websites/{id}',
        tags,
        summary: 'One website',
        params: Id,
        response: WebsiteSchema,
        errors: ['websiteNotFound'],
        handler: async ({ actor, params, res }) => send(res, 200, await show(actor, params.id)),
      })
      .route({
        operationId: 'updateWebsite',
        method: 'patch',
        path: '/api/websites/{id}',
        tags,
        summary: 'Change a website (partial)',
        params: Id,
        description:
          'Only the sent fields change. The interval ceiling follows monitoringType if sent, else the stored type. ' +
          'Customer-scoped callers edit self-service monitors; managed ones need canEditManaged (else use change requests).',
        body: WebsitePatchBody,
        response: WebsiteSchema,
        errors: PATCH_ERRORS,
        handler: async ({ actor, params, body, res }) => {
          const website = await use.updateMonitor.execute(actor, { kind: 'website', ref: params.id, input: strip(body) });
          send(res, 200, await show(actor, website.publicId));
        },
      })
      .route({
        operationId: 'deleteWebsite',
        method: 'delete',
        path: '/api/websites/{id}',
        tags,
        summary: 'Delete a website',
        params: Id,
        response: SuccessSchema,
        errors: ['websiteNotFound', 'readonlyMayNotDelete', 'roleForbidden', 'managed_by_organization'],
        handler: async ({ actor, params }) => {
          await use.deleteMonitor.execute(actor, { kind: 'website', ref: params.id });
          return { success: true as const };
        },
      })
      .route({
        operationId: 'updateWebsiteCheckConfig',
        method: 'patch',
        path: '/api/websites/{websiteId}/check-config',
        tags,
        summary: 'Change the website check configuration',
        description:
          'Any of the check fields; answers the whole configuration. minPageSize >= 0 and <= maxPageSize, sslNoticeDays 1-365 (invalidCheckConfig).',
        params: WebsiteId,
        body: CheckConfigPatchBody,
        response: CheckConfigSchema,
        errors: ['websiteNotFound', 'invalidCheckConfig', 'roleForbidden', 'managed_by_organization', 'conflict'],
        handler: ({ actor, params, body }) => use.updateWebsiteCheckConfig.execute(actor, { ref: params.websiteId, input: body }),
      })
      .route({
        operationId: 'createWebsiteChangeRequest',
        method: 'post',
        path: '/api/websites/{id}/change-requests',
        tags: ['Change requests'],
        status: 201,
        summary: 'Propose a change to (or the deletion of) a website',
        description: CHANGE_REQUEST_DESCRIPTION,
        params: Id,
        body: changeRequestBody(WebsitePatchBody, 'WebsiteChangeRequestCreate'),
        response: ChangeRequestSchema,
        errors: ['websiteNotFound', ...CHANGE_REQUEST_ERRORS],
        handler: async ({ actor, params, body }) =>
          presentChangeRequest(
            await use.fileChangeRequest.execute(actor, {
              kind: 'website',
              ref: params.id,
              action: body.action,
              changes: body.changes ? strip(body.changes) : undefined,
              note: body.note,
            }),
          ),
      }).router;
  },
);
