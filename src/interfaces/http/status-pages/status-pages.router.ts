import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';
import { z } from 'zod';
import { CreateStatusPage } from '../../../application/status-pages/create-status-page';
import { ListStatusPages } from '../../../application/status-pages/list-status-pages';
import { GetStatusPage } from '../../../application/status-pages/get-status-page';
import { UpdateStatusPage } from '../../../application/status-pages/update-status-page';
import { DeleteStatusPage } from '../../../application/status-pages/delete-status-page';
import { StatusPageViews } from '../../../application/status-pages/page-view';
import { CreatePageIncident } from '../../../application/status-pages/create-page-incident';
import { PostPageIncidentUpdate } from '../../../application/status-pages/post-page-incident-update';
import { ListPageIncidents } from '../../../application/status-pages/list-page-incidents';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import {
  CreateIncidentBody,
  CreatePageBody,
  CreateUpdateBody,
  IdParams,
  IncidentParams,
  PageIncidentSchema,
  StatusPageSchema,
  UpdatePageBody,
} from './schemas';
import { presentPage, presentPageIncident } from './presenters';
import { withPageStatus } from './page-not-found';
import { STATUS_PAGE_HTTP_SETTINGS } from './settings';

const tags = ['Status pages'] as const;
const SCOPE_NOTE =
  "Customer-scoped callers see and manage only their customer's pages. statusPageNotFound answers 400 when the id " +
  "is neither a UUID nor a positive integer (data.reason `malformedId`), and 404 when no page with that id is in the caller's " +
  'scope: a page of another organization or customer answers exactly as one that does not exist.';
const COMPONENT_ERRORS = ['monitorNotFound', 'customerDomainNotFound', 'customerIpNotFound', 'serviceLevelObjectiveNotFound'] as const;

/** Status pages (the settings; visitors read them under /status/{slug}) and the incident updates told on them. */
export const statusPagesRouter = defineRouter(
  {
    statusPageHttpSettings: STATUS_PAGE_HTTP_SETTINGS,
    statusPageViews: StatusPageViews,
    listStatusPages: ListStatusPages,
    createStatusPage: CreateStatusPage,
    getStatusPage: GetStatusPage,
    updateStatusPage: UpdateStatusPage,
    deleteStatusPage: DeleteStatusPage,
    listPageIncidents: ListPageIncidents,
    createPageIncident: CreatePageIncident,
    postPageIncidentUpdate: PostPageIncidentUpdate,
  },
  (deps, use) => {
    const base = () => use.statusPageHttpSettings.publicBaseUrl;
    const views = () => use.statusPageViews;
    return new ApiRouter(deps)
      .route({
        operationId: 'listStatusPages',
        method: 'get',
        path: '/api/status-pages',
        tags,
        summary: 'List status pages',
        description: "The organization's pages (its own and its customers'), or a customer-scoped caller's own.",
        query: PageOnlyQuery,
        response: pagedSchema(StatusPageSchema, 'StatusPagePage'),
        handler: async ({ actor, query }) =>
          pageOf(
            (await views().many(await use.listStatusPages.execute(actor))).map((v) => presentPage(v, base())),
            query,
          ),
      })
      .route({
        operationId: 'createStatusPage',
        method: 'post',
        path: '/api/status-pages',
        tags,
        summary: 'Create a status page',
        status: 201,
        description:
          'Components (monitors of any kind, customer domains, customer IPs) in named groups, shown at /status/{slug}. A page ' +
          "with customerId (or made by a customer-scoped caller) is that customer's and may show only its records. A password or an " +
          'IP allowlist makes it private. `objectives` names service level objectives whose attainment the page shows (a ' +
          "customer's page only that customer's). Editors and admins.",
        body: CreatePageBody,
        response: StatusPageSchema,
        errors: ['statusPageSlugTaken', 'customerNotFound', ...COMPONENT_ERRORS, 'roleForbidden'],
        handler: async ({ actor, body }) => presentPage(await views().one(await use.createStatusPage.execute(actor, body)), base()),
      })
      .route({
        operationId: 'getStatusPage',
        method: 'get',
        path: '/api/status-pages/{id}',
        tags,
        summary: 'Get a status page',
        description: SCOPE_NOTE,
        params: IdParams,
        response: StatusPageSchema,
        errors: ['statusPageNotFound'],
        handler: async ({ actor, params, req, res }) =>
          withPageStatus(req, res, async () => presentPage(await views().one(await use.getStatusPage.execute(actor, params)), base())),
      })
      .route({
        operationId: 'updateStatusPage',
        method: 'patch',
        path: '/api/status-pages/{id}',
        tags,
        summary: 'Change a status page',
        description: `Any of the create fields; groups, when sent, replace all groups; password null removes it (and a new password signs every visitor out). ${SCOPE_NOTE}`,
        params: IdParams,
        body: UpdatePageBody,
        response: StatusPageSchema,
        errors: ['statusPageNotFound', 'statusPageSlugTaken', ...COMPONENT_ERRORS, 'conflict', 'roleForbidden'],
        handler: async ({ actor, params, body, req, res }) =>
          withPageStatus(req, res, async () =>
            presentPage(await views().one(await use.updateStatusPage.execute(actor, { id: params.id, change: body })), base()),
          ),
      })
      .route({
        operationId: 'deleteStatusPage',
        method: 'delete',
        path: '/api/status-pages/{id}',
        tags,
        summary: 'Delete a status page',
        description: `Its incident updates and subscribers go with it. ${SCOPE_NOTE}`,
        params: IdParams,
        response: z.object({ success: z.literal(true), id: z.uuid() }),
        errors: ['statusPageNotFound', 'roleForbidden'],
        handler: async ({ actor, params, req, res }) =>
          withPageStatus(req, res, async () => ({
            success: true as const,
            id: (await use.deleteStatusPage.execute(actor, params)).publicId,
          })),
      })
      .route({
        operationId: 'listStatusPageIncidents',
        method: 'get',
        path: '/api/status-pages/{id}/incidents',
        tags,
        summary: 'Incidents told on a status page',
        description: `Open ones and those of the last 90 days, newest first, with their updates. ${SCOPE_NOTE}`,
        params: IdParams,
        query: PageOnlyQuery,
        response: pagedSchema(PageIncidentSchema, 'StatusPageIncidentPage'),
        errors: ['statusPageNotFound'],
        handler: async ({ actor, params, query, req, res }) =>
          withPageStatus(req, res, async () =>
            pageOf((await use.listPageIncidents.execute(actor, params)).map(presentPageIncident), query),
          ),
      })
      .route({
        operationId: 'createStatusPageIncident',
        method: 'post',
        path: '/api/status-pages/{id}/incidents',
        tags,
        summary: 'Tell visitors about an incident',
        status: 201,
        description:
          'The first update (investigating by default) of an incident: one declared on the page (title required), or a ' +
          'service incident (automatic or manual) of a monitor on the page (incidentId; a second call for the same incident adds ' +
          `an update to its story). The update appears on the page and goes to the page's subscribers. ${SCOPE_NOTE}`,
        params: IdParams,
        body: CreateIncidentBody,
        response: PageIncidentSchema,
        errors: ['statusPageNotFound', 'incidentNotFound', 'roleForbidden'],
        handler: async ({ actor, params, body, req, res }) =>
          withPageStatus(req, res, async () =>
            presentPageIncident(await use.createPageIncident.execute(actor, { id: params.id, ...body })),
          ),
      })
      .route({
        operationId: 'postStatusPageIncidentUpdate',
        method: 'post',
        path: '/api/status-pages/{id}/incidents/{incidentId}/updates',
        tags,
        summary: 'Post an incident update',
        status: 201,
        description:
          'investigating, identified, monitoring or resolved, with a message; resolved closes the incident on the page (a ' +
          `later update reopens it). The update goes to the page's subscribers. ${SCOPE_NOTE}`,
        params: IncidentParams,
        body: CreateUpdateBody,
        response: PageIncidentSchema,
        errors: ['statusPageNotFound', 'pageIncidentNotFound', 'roleForbidden'],
        handler: async ({ actor, params, body, req, res }) =>
          withPageStatus(req, res, async () =>
            presentPageIncident(await use.postPageIncidentUpdate.execute(actor, { id: params.id, incidentId: params.incidentId, ...body })),
          ),
      }).router;
  },
);
