import { z } from 'zod';
import { CreateObjective } from '../../../application/service-levels/create-objective';
import { ListObjectives } from '../../../application/service-levels/list-objectives';
import { GetObjective } from '../../../application/service-levels/get-objective';
import { UpdateObjective } from '../../../application/service-levels/update-objective';
import { DeleteObjective } from '../../../application/service-levels/delete-objective';
import { GetObjectiveStatus } from '../../../application/service-levels/get-objective-status';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { PageQuery, pageOf, pagedSchema } from '../shared/paging';
import { CreateObjectiveBody, IdParams, ObjectiveSchema, ObjectiveStatusSchema, StatusQuery, UpdateObjectiveBody } from './schemas';
import { presentObjective, presentStatus } from './presenters';

const tags = ['Service levels'] as const;
const SCOPE_NOTE =
  "Customer-scoped callers see and manage only their customer's objectives; any other answers 404 " +
  'serviceLevelObjectiveNotFound, as a missing one does.';
const SUBJECT_ERRORS = ['websiteNotFound', 'customerNotFound', 'tagNotFound'] as const;

/** Service level objectives: a target share of good time over a window, its error budget and burn-rate alerts. */
export const serviceLevelsRouter = defineRouter(
  {
    listObjectives: ListObjectives,
    createObjective: CreateObjective,
    getObjective: GetObjective,
    getObjectiveStatus: GetObjectiveStatus,
    updateObjective: UpdateObjective,
    deleteObjective: DeleteObjective,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listServiceLevelObjectives',
        method: 'get',
        path: '/api/service-levels',
        tags,
        summary: 'List service level objectives',
        description: `Oldest first. ${SCOPE_NOTE}`,
        query: z.object(PageQuery).strict(),
        response: pagedSchema(ObjectiveSchema, 'ServiceLevelObjectivePage'),
        handler: async ({ actor, query }) => pageOf((await use.listObjectives.execute(actor)).map(presentObjective), query),
      })
      .route({
        operationId: 'createServiceLevelObjective',
        method: 'post',
        path: '/api/service-levels',
        tags,
        status: 201,
        summary: 'Create a service level objective',
        description:
          'A target (percent of known time that must be good) over a window, for one website or a customer’s monitors ' +
          '(all of them, or those carrying a tag). Attainment is computed from the stored results, maintenance that ' +
          'excludes time from uptime left out. With alertsEnabled, a fast burn of the error budget (1 h and 5 min at ' +
          '14.4x, or 6 h and 30 min at 6x) is told once to the channels listing slo.burning, and its end to those listing ' +
          'slo.recovered. Editors and admins.',
        body: CreateObjectiveBody,
        response: ObjectiveSchema,
        errors: [...SUBJECT_ERRORS, 'invalidServiceLevelObjective', 'roleForbidden'],
        handler: async ({ actor, body }) => presentObjective(await use.createObjective.execute(actor, body)),
      })
      .route({
        operationId: 'getServiceLevelObjective',
        method: 'get',
        path: '/api/service-levels/{id}',
        tags,
        summary: 'Get a service level objective',
        description: SCOPE_NOTE,
        params: IdParams,
        response: ObjectiveSchema,
        errors: ['serviceLevelObjectiveNotFound'],
        handler: async ({ actor, params }) => presentObjective(await use.getObjective.execute(actor, params)),
      })
      .route({
        operationId: 'getServiceLevelStatus',
        method: 'get',
        path: '/api/service-levels/{id}/status',
        tags,
        summary: 'Attainment, error budget and burn rates of an objective',
        description:
          'Now, from the stored results (rollups for whole hours, results for the rest), as the uptime figures count ' +
          'time: attainment is good over known time; unknown time (no result stands for it) is reported apart and ' +
          'neither spends nor earns budget; the budget is (1 - target) of the known time plus, for a calendar month, ' +
          'the time still to come; minutes are per monitor and location. from/to measure another stretch instead ' +
          'of the window (a monthly report uses its period). ' +
          SCOPE_NOTE,
        params: IdParams,
        query: StatusQuery,
        response: ObjectiveStatusSchema,
        errors: ['serviceLevelObjectiveNotFound', 'invalidDateRange'],
        handler: async ({ actor, params, query }) => presentStatus(await use.getObjectiveStatus.execute(actor, { ...params, ...query })),
      })
      .route({
        operationId: 'updateServiceLevelObjective',
        method: 'patch',
        path: '/api/service-levels/{id}',
        tags,
        summary: 'Change a service level objective',
        description:
          'Any of the create fields. A new target or subject, or alerts turned off, ends a running breach without ' +
          `telling it. ${SCOPE_NOTE}`,
        params: IdParams,
        body: UpdateObjectiveBody,
        response: ObjectiveSchema,
        errors: ['serviceLevelObjectiveNotFound', ...SUBJECT_ERRORS, 'invalidServiceLevelObjective', 'conflict', 'roleForbidden'],
        handler: async ({ actor, params, body }) =>
          presentObjective(await use.updateObjective.execute(actor, { id: params.id, change: body })),
      })
      .route({
        operationId: 'deleteServiceLevelObjective',
        method: 'delete',
        path: '/api/service-levels/{id}',
        tags,
        summary: 'Delete a service level objective',
        description: SCOPE_NOTE,
        params: IdParams,
        response: z.object({ success: z.literal(true), id: z.uuid() }),
        errors: ['serviceLevelObjectiveNotFound', 'roleForbidden'],
        handler: async ({ actor, params }) => ({
          success: true as const,
          id: (await use.deleteObjective.execute(actor, params)).publicId,
        }),
      }).router;
  },
);
