import { z } from 'zod';
import { ListAuditLog } from '../../../application/audit/list-audit-log';
import type { AuditEntry } from '../../../domain/audit/audit-entry';
import { ApiRouter } from '../shared/api-router';
import { PageQuery, paged, pagedSchema } from '../shared/paging';
import { defineRouter } from '../shared/router-deps';

const tags = ['Audit log'] as const;

const Timestamp = z
  .string()
  .datetime({ offset: true })
  .transform((value) => new Date(value));

const AuditEntrySchema = z
  .object({
    id: z.string().uuid(),
    occurredAt: z.string().meta({ description: 'When the change committed (ISO 8601, UTC)' }),
    actor: z.object({
      type: z.enum(['user', 'apiToken', 'agent', 'anonymous', 'system']).meta({
        description: '`anonymous`: a failed sign-in; `system`: the service itself (for example a monitor that became unknown)',
      }),
      userId: z.string().nullable().meta({ description: 'The person, or the user behind the token or agent' }),
      label: z.string().nullable().meta({ description: 'Their e-mail address at the time' }),
      credential: z.object({
        type: z.string().nullable().meta({ description: '`session`, `apiToken` or `agent`' }),
        id: z.string().nullable().meta({ description: "The API or agent token's id; null for sessions" }),
      }),
    }),
    ip: z.string().nullable(),
    requestId: z.string().nullable().meta({ description: 'The X-Request-Id of the request, as logged' }),
    resourceType: z.string().meta({ description: 'For example customer, monitor, notificationChannel, statusPage, apiToken, user' }),
    resourceId: z.string().meta({ description: "The resource's publicId where it has one, else its id" }),
    customerId: z.number().int().nullable(),
    action: z.string().meta({
      description:
        '`created`, `updated`, `deleted`, `signedIn`, `signInFailed`, `accepted` (an invitation) or `toolCalled` (an MCP tool call: resourceType `mcpTool`, ' +
        'resourceId the tool); system entries on a monitor: `monitor.stateUnknown` ' +
        '(too few of its locations have a live check process to decide it: changes.silentLocations says which are silent, ' +
        'changes.state the state before and after) and `monitor.stateKnown` (enough are live again)',
    }),
    changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })).meta({
      description:
        'Changed fields with their values before and after. Secrets read "[redacted]" (a changed secret ' +
        '"[redacted, changed]"); a part of a resource (a tag of a monitor, a schedule layer) is listed as `part.id`.',
    }),
  })
  .meta({ id: 'AuditEntry' });

const presentEntry = (entry: AuditEntry) => ({
  id: entry.id,
  occurredAt: entry.occurredAt.toISOString(),
  actor: {
    type: entry.actor.type,
    userId: entry.actor.userId,
    label: entry.actor.label,
    credential: { type: entry.actor.credentialType, id: entry.actor.credentialId },
  },
  ip: entry.ip,
  requestId: entry.requestId,
  resourceType: entry.resourceType,
  resourceId: entry.resourceId,
  customerId: entry.customerId,
  action: entry.action,
  changes: entry.changes,
});

/** GET /api/audit-log: who changed what in the organization. */
export const auditLogRouter = defineRouter({ listAuditLog: ListAuditLog }, (deps, use) => {
  return new ApiRouter(deps).route({
    operationId: 'listAuditLog',
    method: 'get',
    path: '/api/audit-log',
    tags,
    summary: 'The audit log, newest first',
    description:
      'Every change made by a user, an API token or an agent (created, updated, deleted: one entry per ' +
      'resource and request, with the changed fields before and after, secrets redacted), and sign-ins and failed ' +
      'sign-ins, MCP tool calls (`toolCalled`, whatever their outcome), and what the service itself decided about a monitor (actor type `system`: `monitor.stateUnknown`, ' +
      '`monitor.stateKnown`). Each entry is written in the same transaction as its change. Organization admins read the ' +
      "organization's log; customer-scoped admins the entries of their customer. Filters: `actor` (a user id, a " +
      'token id or an e-mail address), `resourceType`, `resourceId`, `action`, `from` and `to` (ISO 8601, inclusive). ' +
      'Entries are kept for AUDIT_LOG_RETENTION_DAYS (365 by default) and are part of the data export.',
    query: z.object({
      ...PageQuery,
      actor: z.string().trim().min(1).max(320).optional(),
      resourceType: z.string().trim().min(1).max(64).optional(),
      resourceId: z.string().trim().min(1).max(64).optional(),
      action: z.string().trim().min(1).max(32).optional(),
      from: Timestamp.optional(),
      to: Timestamp.optional(),
    }),
    response: pagedSchema(AuditEntrySchema, 'AuditLogPage'),
    errors: ['roleForbidden', 'invalidDateRange'],
    handler: async ({ actor, query }) => {
      const { page, perPage, ...filter } = query;
      const result = await use.listAuditLog.execute(actor, filter, { page, perPage });
      return paged(result.items.map(presentEntry), result.total, { page, perPage });
    },
  });
});
