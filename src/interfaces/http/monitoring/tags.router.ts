import { MONITOR_KINDS_IN_WORDS } from '../../../domain/monitoring/monitor-kind';
import { z } from 'zod';
import { AttachTag } from '../../../application/monitoring/attach-tag';
import { CreateTag } from '../../../application/monitoring/create-tag';
import { DeleteTag } from '../../../application/monitoring/delete-tag';
import { DetachTag } from '../../../application/monitoring/detach-tag';
import { ListTags } from '../../../application/monitoring/list-tags';
import { UpdateTag } from '../../../application/monitoring/update-tag';
import { TAG_COLORS } from '../../../domain/monitoring/tag';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { CustomerRefSchema, QueryRef, RecordRefSchema } from './fields';
import { presentTag } from './presenters';
import { SuccessSchema, TagSchema } from './response.schemas';
import { PageQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['Tags'] as const;
const Id = z.object({ id: z.string().min(1).max(64) });
const TagName = z.string().trim().min(1).max(50);
/** Any string: the palette decides (invalidTagColor), so a long colour is no shape error. */
const Color = z.string().meta({ description: `One of the palette: ${TAG_COLORS.join(', ')}, case-insensitive (invalidTagColor)` });
const MonitorTagBody = z
  .object({
    tagId: RecordRefSchema,
    monitorId: RecordRefSchema,
    monitorType: z
      .string()
      .max(32)
      .meta({ description: `${MONITOR_KINDS_IN_WORDS} (invalidMonitorType)` }),
  })
  .strict()
  .meta({ id: 'MonitorTag' });

/** Tags (per customer or organization-wide, fixed palette) and their attachment to monitors (at most 5 per monitor). */
export const tagsRouter = defineRouter(
  { listTags: ListTags, createTag: CreateTag, updateTag: UpdateTag, deleteTag: DeleteTag, attachTag: AttachTag, detachTag: DetachTag },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listTags',
        method: 'get',
        path: '/api/tags',
        tags,
        summary: 'Tags, by name',
        query: z.object({ customerId: QueryRef.optional(), ...PageQuery }).strict(),
        description:
          'Organization-wide callers see every tag of the organization (organization-wide ones have customerId null); ' +
          "customerId narrows the list to that customer's own tags. Customer-scoped callers see their customer's tags.",
        response: pagedSchema(TagSchema, 'TagPage'),
        handler: async ({ actor, query: { page, perPage, ...query } }) =>
          pageOf((await use.listTags.execute(actor, query)).map(presentTag), { page, perPage }),
      })
      .route({
        operationId: 'createTag',
        method: 'post',
        path: '/api/tags',
        tags,
        status: 201,
        summary: 'Create a tag',
        description:
          'A tag belongs to one customer of the organization (customerId) or to the whole organization (customerId ' +
          'null: it may label any monitor of the organization). An organization-wide caller that omits customerId creates an ' +
          "organization-wide tag. A customer-scoped caller's tags are its own customer's: it may omit customerId only while " +
          'the organization has a single customer (else tagCustomerRequired), and naming another customer answers ' +
          'invalidCustomer, as does a customer of another organization. Names are unique per customer, and among the ' +
          'organization-wide tags, case-insensitively (tagNameTaken).',
        body: z
          .object({
            name: TagName,
            color: Color,
            customerId: CustomerRefSchema.nullable().optional().meta({ description: 'Omitted or null: organization-wide' }),
          })
          .strict(),
        response: TagSchema,
        errors: ['authorizingUserUnresolved', 'invalidTagColor', 'tagCustomerRequired', 'invalidCustomer', 'tagNameTaken', 'roleForbidden'],
        handler: async ({ actor, body: { customerId, ...body } }) =>
          presentTag(await use.createTag.execute(actor, { ...body, customerId: customerId ?? undefined })),
      })
      .route({
        operationId: 'updateTag',
        method: 'patch',
        path: '/api/tags/{id}',
        tags,
        summary: 'Rename or recolour a tag',
        params: Id,
        body: z.object({ name: TagName.optional(), color: Color.optional() }).strict(),
        response: TagSchema,
        errors: ['tagNotFound', 'invalidTagColor', 'tagNameTaken', 'roleForbidden'],
        handler: async ({ actor, params, body }) => presentTag(await use.updateTag.execute(actor, { ref: params.id, ...body })),
      })
      .route({
        operationId: 'deleteTag',
        method: 'delete',
        path: '/api/tags/{id}',
        tags,
        summary: 'Delete a tag (it comes off every monitor)',
        params: Id,
        response: SuccessSchema,
        errors: ['tagNotFound', 'roleForbidden'],
        handler: async ({ actor, params }) => {
          await use.deleteTag.execute(actor, { ref: params.id });
          return { success: true as const };
        },
      })
      .route({
        operationId: 'attachTagToMonitor',
        method: 'post',
        path: '/api/monitor-tags',
        tags,
        summary: 'Attach a tag to a monitor',
        description:
          'At most 5 tags per monitor (tagLimitReached); attaching an attached tag succeeds (alreadyAttached: true). ' +
          "A customer's tag labels that customer's monitors only, an organization-wide tag any monitor of the organization " +
          '(else tagMonitorOrgMismatch).',
        body: MonitorTagBody,
        response: z.object({ success: z.literal(true), alreadyAttached: z.boolean() }),
        errors: ['invalidMonitorType', 'tagNotFound', 'monitorNotFound', 'tagMonitorOrgMismatch', 'tagLimitReached', 'roleForbidden'],
        handler: async ({ actor, body }) => ({ success: true as const, ...(await use.attachTag.execute(actor, body)) }),
      })
      .route({
        operationId: 'detachTagFromMonitor',
        method: 'delete',
        path: '/api/monitor-tags',
        tags,
        summary: 'Detach a tag from a monitor (idempotent)',
        body: MonitorTagBody,
        response: SuccessSchema,
        errors: ['invalidMonitorType', 'tagNotFound', 'monitorNotFound', 'tagMonitorOrgMismatch', 'roleForbidden'],
        handler: async ({ actor, body }) => {
          await use.detachTag.execute(actor, body);
          return { success: true as const };
        },
      }).router;
  },
);
