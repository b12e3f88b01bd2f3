import { MAX_JSON_DEPTH } from '../shared/json-depth';
import { z } from 'zod';
import type { Provided } from '../../../application/shared/token';
import type { RequestHandler } from 'express';
import { AppError, isAppError } from '../../../domain/shared/app-error';
import { ALERT_SOURCE_KINDS, type AlertSource } from '../../../domain/incident-management/alert-source';
import { CreateAlertSource } from '../../../application/incident-management/create-alert-source';
import {
  DeleteAlertSource,
  GetAlertSource,
  ListAlertSources,
  UpdateAlertSource,
} from '../../../application/incident-management/manage-alert-sources';
import { IngestAlertPayload } from '../../../application/incident-management/ingest-alert-payload';
import { SendTestAlert } from '../../../application/incident-management/send-test-alert';
import type { ProcessedImEvent } from '../../../application/incident-management/im-event';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { readJsonBody, type JsonLimits } from './json-intake';
import { IM_GATE_ERRORS } from './im-incidents.router';
import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';

/** One request's body at most (the hourly budget of the organization is 50 MiB). */
export const ALERT_INGEST_LIMITS: JsonLimits = { maxBytes: 1024 * 1024, maxDepth: MAX_JSON_DEPTH };
export const ALERT_INGEST_PATH = '/api/im/ingest/:token';

const tags = ['IM ingest'] as const;
const Path = z.string().trim().min(1).max(200);
const Mapping = z
  .object({
    dedupKey: Path,
    summary: Path,
    severity: Path,
    status: Path,
    source: Path,
    resolvedValues: z.array(z.string().min(1).max(64)).max(20),
    acknowledgedValues: z.array(z.string().min(1).max(64)).max(20),
  })
  .strict()
  .meta({ id: 'AlertSourceMapping', description: 'Dot paths into a generic payload (an array body is one alert per element)' });
const Routing = {
  teamId: z.string().trim().min(1).max(64).nullable().optional().meta({ description: 'Team of new incidents (invalidTeamId)' }),
  escalationPolicyId: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .nullable()
    .optional()
    .meta({ description: 'Escalation policy of new incidents (imRoutingInvalidPolicyId)' }),
  customerId: z
    .union([z.number().int().positive(), z.string().trim().min(1).max(64)])
    .nullable()
    .optional()
    .meta({ description: 'Customer of new incidents, by id or publicId (invalidCustomerId)' }),
};
const CreateBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    kind: z
      .enum(ALERT_SOURCE_KINDS)
      .meta({ description: 'generic (with mapping), alertmanager (webhook v4) or grafana (alerting webhook)' }),
    mapping: Mapping.optional(),
    ...Routing,
  })
  .strict()
  .meta({ id: 'AlertSourceCreate' });
const UpdateBody = z
  .object({ name: z.string().trim().min(1).max(200).optional(), mapping: Mapping.optional(), ...Routing })
  .strict()
  .meta({ id: 'AlertSourceUpdate' });
const IdParams = z.object({ id: z.string().trim().min(1).max(64) });

const SourceSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    kind: z.enum(ALERT_SOURCE_KINDS),
    mapping: Mapping,
    teamId: z.string().nullable(),
    escalationPolicyId: z.string().nullable(),
    customerId: z.number().int().nullable(),
    tokenHint: z.string().meta({ description: 'The last 4 characters of the token' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'AlertSource' });
const ProcessedSchema = z
  .object({
    dedupKey: z.string(),
    outcome: z.enum(['created', 'occurrence', 'acknowledged', 'resolved', 'ignored']),
    incidentId: z.string().nullable(),
  })
  .meta({ id: 'ProcessedAlert' });

const presentSource = (source: AlertSource) => ({
  id: source.publicId,
  name: source.name,
  kind: source.kind,
  mapping: { ...source.mapping },
  teamId: source.routing.teamId,
  escalationPolicyId: source.routing.escalationPolicyId,
  customerId: source.routing.customerId,
  tokenHint: source.tokenHint,
  createdAt: source.createdAt.toISOString(),
  updatedAt: source.updatedAt.toISOString(),
});
const presentProcessed = (p: ProcessedImEvent) => ({ dedupKey: p.dedupKey, outcome: p.outcome, incidentId: p.incidentId });

/**
 * What runs before an alert source's body is read: the token names the source, IM is on, the
 * source is within 300 requests a minute and the organization within its hourly byte budget; then
 * the body is streamed against its limits.
 */
/** What the intake needs: the source named by the token, admitted before its body is read. */
export const alertIngestIntakeNeeds = { ingestAlertPayload: IngestAlertPayload };

export function alertIngestIntake(use: Provided<typeof alertIngestIntakeNeeds>): RequestHandler {
  return async (req, res, next) => {
    try {
      const declared = Number(req.headers['content-length']);
      const token = String(req.params.token ?? '');
      res.locals.alertSource = await use.ingestAlertPayload.admit(token, Number.isFinite(declared) ? declared : null);
      const body = await readJsonBody(req, ALERT_INGEST_LIMITS);
      req.body = body.value;
      res.locals.bodyBytes = body.bytes;
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** Alert sources: their CRUD, the test button, and the ingest endpoint their tools post to. */
export const alertSourcesRouter = defineRouter(
  {
    ingestAlertPayload: IngestAlertPayload,
    listAlertSources: ListAlertSources,
    createAlertSource: CreateAlertSource,
    getAlertSource: GetAlertSource,
    updateAlertSource: UpdateAlertSource,
    deleteAlertSource: DeleteAlertSource,
    sendTestAlert: SendTestAlert,
  },
  (deps, use) => {
    const ROUTING_ERRORS = ['invalidTeamId', 'invalidCustomerId', 'imRoutingInvalidPolicyId'] as const;
    return new ApiRouter(deps)
      .route({
        operationId: 'listAlertSources',
        method: 'get',
        path: '/api/im/sources',
        tags,
        summary: 'List alert sources',
        query: PageOnlyQuery,
        response: pagedSchema(SourceSchema, 'AlertSourcePage'),
        errors: IM_GATE_ERRORS,
        handler: async ({ actor, query }) => pageOf((await use.listAlertSources.execute(actor)).map(presentSource), query),
      })
      .route({
        operationId: 'createAlertSource',
        method: 'post',
        path: '/api/im/sources',
        tags,
        summary: 'Create an alert source',
        description:
          'Answers the source with its token, the only time the token is shown: only its digest is stored. Tools post ' +
          'to /api/im/ingest/{token}. New incidents of the source go to its team, escalation policy and customer.',
        body: CreateBody,
        status: 201,
        response: SourceSchema.extend({ token: z.string().meta({ description: 'Shown once; prefix wsmi_' }) }),
        errors: [...IM_GATE_ERRORS, ...ROUTING_ERRORS],
        handler: async ({ actor, body }) => {
          const { source, token } = await use.createAlertSource.execute(actor, body);
          return { ...presentSource(source), token };
        },
      })
      .route({
        operationId: 'getAlertSource',
        method: 'get',
        path: '/api/im/sources/{id}',
        tags,
        summary: 'Get an alert source',
        params: IdParams,
        response: SourceSchema,
        errors: [...IM_GATE_ERRORS, 'notFound'],
        handler: async ({ actor, params }) => presentSource(await use.getAlertSource.execute(actor, params.id)),
      })
      .route({
        operationId: 'updateAlertSource',
        method: 'patch',
        path: '/api/im/sources/{id}',
        tags,
        summary: 'Change an alert source',
        params: IdParams,
        body: UpdateBody,
        response: SourceSchema,
        errors: [...IM_GATE_ERRORS, 'notFound', 'conflict', ...ROUTING_ERRORS],
        handler: async ({ actor, params, body }) => presentSource(await use.updateAlertSource.execute(actor, params.id, body)),
      })
      .route({
        operationId: 'deleteAlertSource',
        method: 'delete',
        path: '/api/im/sources/{id}',
        tags,
        summary: 'Delete an alert source',
        description: 'Its token stops working at once; its incidents stay.',
        params: IdParams,
        response: z.object({ success: z.literal(true), id: z.uuid() }),
        errors: [...IM_GATE_ERRORS, 'notFound'],
        handler: async ({ actor, params }) => ({
          success: true as const,
          id: (await use.deleteAlertSource.execute(actor, params.id)).publicId,
        }),
      })
      .route({
        operationId: 'sendAlertSourceTestAlert',
        method: 'post',
        path: '/api/im/sources/{id}/test-alert',
        tags,
        summary: 'Send a test alert through an alert source',
        description:
          "A firing sample in the source's own payload shape goes through the same path as a real one: the source's " +
          'rate and the byte budget, its parsing and mapping, and the incident it opens (title "Test alert from <name>", severity info).',
        params: IdParams,
        status: 202,
        response: z.object({ processed: z.array(ProcessedSchema) }),
        errors: [...IM_GATE_ERRORS, 'notFound', 'imIngestRateLimited', 'imIngestByteBudgetExceeded'],
        handler: async ({ actor, params }) => ({
          processed: (await use.sendTestAlert.execute(actor, params.id)).map(presentProcessed),
        }),
      })
      .public({
        operationId: 'ingestAlerts',
        method: 'post',
        path: '/api/im/ingest/{token}',
        tags,
        summary: 'Post alerts to an alert source',
        description:
          "No credentials: the source's token in the path is the secret (never logged). The body is the source's kind " +
          'of payload: a Prometheus Alertmanager webhook (version 4), a Grafana alerting webhook, or generic JSON read through the ' +
          "source's mapping. Grouped payloads fan out: each alert, by its fingerprint, opens, adds an occurrence to, or resolves " +
          'its own incident. At most 1 MiB per request; 300 requests per minute per source (429 imIngestRateLimited) and 50 MiB ' +
          'of bodies per organization per hour (429 imIngestByteBudgetExceeded), both with data.retryAfter and decided before ' +
          'the body is read. An unknown token answers 404. The 202 is sent once every alert of the payload is stored: the ' +
          "payload's alerts are committed together, in their order, in one transaction (group commit with other requests' " +
          'events); when that fails none of them is stored and the answer is 503 unavailable (retry).',
        params: z.object({ token: z.string().min(1).max(512) }),
        status: 202,
        response: z.object({ status: z.literal('success'), processed: z.array(ProcessedSchema) }),
        errors: [
          'notFound',
          'imNotEnabled',
          'imIngestRateLimited',
          'imIngestByteBudgetExceeded',
          'payloadTooLarge',
          'invalidJson',
          'payloadTooDeep',
          'unavailable',
        ],
        handler: async ({ req, res }) => {
          try {
            const processed = await use.ingestAlertPayload.ingest(res.locals.alertSource, req.body, res.locals.bodyBytes);
            return { status: 'success' as const, processed: processed.map(presentProcessed) };
          } catch (error) {
            if (isAppError(error)) throw error;
            req.log.error({ err: error }, 'alerts not stored');
            throw new AppError('unavailable');
          }
        },
      }).router;
  },
);
