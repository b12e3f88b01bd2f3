import { z } from 'zod';
import { AttachTag } from '../../../application/monitoring/attach-tag';
import { CreateTag } from '../../../application/monitoring/create-tag';
import { DeleteTag } from '../../../application/monitoring/delete-tag';
import { DetachTag } from '../../../application/monitoring/detach-tag';
import { ListTags } from '../../../application/monitoring/list-tags';
import { UpdateTag } from '../../../application/monitoring/update-tag';
import { TAG_COLORS } from '../../../domain/monitoring/tag';
import { ApiRouter } from '../shared/api-router';
import type { RouterDeps } from '../shared/router-deps';
import { CustomerRefSchema, QueryRef, RecordRefSchema } from './fields';
import { presentTag } from './presenters';
import { SuccessSchema, TagSchema } from './response.schemas';

const tags = ['Tags'] as const;
const Id = z.object({ id: z.string().min(1).max(64) });
const TagName = z.string().trim().min(1).max(50);
const Color = z.string().max(16).meta({ description: `One of the palette: ${TAG_COLORS.join(', ')} (invalidTagColor)` });
const MonitorTagBody = z.object({
  tagId: RecordRefSchema, monitorId: RecordRefSchema,
  monitorType: z.string().max(32).meta({ description: 'website, dns, icmp, tcp, smtp, ssh, ftp or imap-pop (invalidMonitorType)' }),
}).strict().meta({ id: 'MonitorTag' });

/** Tags (per customer, fixed palette) and their attachment to monitors (at most 5 per monitor). */
export function tagsRouter(deps: RouterDeps) {
  const { container } = deps;
  return new ApiRouter(deps)
    .route({
      operationId: 'listTags',
      method: 'get', path: '/api/tags', tags, summary: 'Tags, by name', query: z.object({ customerId: QueryRef.optional() }).strict(),
      response: z.array(TagSchema),
      handler: async ({ actor, query }) => (await container.get(ListTags).execute(actor, query)).map(presentTag),
    })
    .route({
      operationId: 'createTag',
      method: 'post', path: '/api/tags', tags, status: 201, summary: 'Create a tag',
      description: 'A tag belongs to one customer: a customer-scoped caller\'s own; otherwise customerId, which may be omitted '
        + 'only when the organization has a single customer (tagCustomerRequired). A customer of another organization answers '
        + 'invalidCustomer. Names are unique per customer, case-insensitively (tagNameTaken).',
      body: z.object({ name: TagName, color: Color, customerId: CustomerRefSchema.optional() }).strict(),
      response: TagSchema,
      errors: ['authorizingUserUnresolved', 'invalidTagColor', 'tagCustomerRequired', 'invalidCustomer', 'tagNameTaken', 'roleForbidden'],
      handler: async ({ actor, body }) => presentTag(await container.get(CreateTag).execute(actor, body)),
    })
    .route({
      operationId: 'updateTag',
      method: 'patch', path: '/api/tags/{id}', tags, summary: 'Rename or recolour a tag', params: Id,
      body: z.object({ name: TagName.optional(), color: Color.optional() }).strict(), response: TagSchema,
      errors: ['tagNotFound', 'invalidTagColor', 'tagNameTaken', 'roleForbidden'],
      handler: async ({ actor, params, body }) => presentTag(await container.get(UpdateTag).execute(actor, { ref: params.id, ...body })),
    })
    .route({
      operationId: 'deleteTag',
      method: 'delete', path: '/api/tags/{id}', tags, summary: 'Delete a tag (it comes off every monitor)', params: Id,
      response: SuccessSchema, errors: ['tagNotFound', 'roleForbidden'],
      handler: async ({ actor, params }) => {
        await container.get(DeleteTag).execute(actor, { ref: params.id });
        return { success: true as const };
      },
    })
    .route({
      operationId: 'attachTagToMonitor',
      method: 'post', path: '/api/monitor-tags', tags, summary: 'Attach a tag to a monitor',
      description: 'At most 5 tags per monitor (tagLimitReached); attaching an attached tag succeeds (alreadyAttached: true). '
        + 'Tag and monitor must belong to the same customer of the same organization (tagMonitorOrgMismatch).',
      body: MonitorTagBody, response: z.object({ success: z.literal(true), alreadyAttached: z.boolean() }),
      errors: ['invalidMonitorType', 'tagNotFound', 'monitorNotFound', 'tagMonitorOrgMismatch', 'tagLimitReached', 'roleForbidden'],
      handler: async ({ actor, body }) => ({ success: true as const, ...(await container.get(AttachTag).execute(actor, body)) }),
    })
    .route({
      operationId: 'detachTagFromMonitor',
      method: 'delete', path: '/api/monitor-tags', tags, summary: 'Detach a tag from a monitor (idempotent)',
      body: MonitorTagBody, response: SuccessSchema,
      errors: ['invalidMonitorType', 'tagNotFound', 'monitorNotFound', 'tagMonitorOrgMismatch', 'roleForbidden'],
      handler: async ({ actor, body }) => {
        await container.get(DetachTag).execute(actor, body);
        return { success: true as const };
      },
    }).router;
}
