import { z } from 'zod';
import type { ErrorCode } from '../../../domain/shared/error-codes';
import { CONTACT_METHOD_TYPES, E164, type ContactMethod } from '../../../domain/incident-management/contact-method';
import {
  AddContactMethod,
  ListContactMethods,
  RemoveContactMethod,
  UpdateContactMethod,
} from '../../../application/on-call/manage-contact-methods';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { IM_GATE_ERRORS } from '../incident-management/im-incidents.router';
import { PageQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['IM contact methods'] as const;
const WHOSE: ErrorCode[] = [...IM_GATE_ERRORS, 'imContactMethodForbidden', 'userNotFound'];

const UserQuery = z
  .object({
    userId: z.string().trim().min(1).max(64).optional().meta({
      description: "Whose methods (the caller by default); another user's needs an organization admin (imContactMethodForbidden)",
    }),
  })
  .strict();
const IdParams = z.object({
  id: z.string().trim().min(1).max(64).meta({ description: 'A method id, or account-email for the account e-mail' }),
});
const Address = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .meta({
    description: `email: an address; sms: E.164 (${E164.source}); webhook: an http(s) URL whose host the target policy admits; web-push: the id of one of the user's push subscriptions (GET /api/me/push-subscriptions)`,
  });
const CreateBody = z
  .object({
    userId: z.string().trim().min(1).max(64).optional().meta({ description: 'Whose method (the caller by default)' }),
    type: z.enum(CONTACT_METHOD_TYPES),
    address: Address,
    enabled: z.boolean().optional().meta({ description: 'true by default' }),
  })
  .strict()
  .meta({ id: 'ContactMethodCreate' });
const UpdateBody = z.object({ enabled: z.boolean().optional(), address: Address.optional() }).strict().meta({ id: 'ContactMethodUpdate' });
const MethodSchema = z
  .object({
    id: z.string().meta({ description: 'uuid, or account-email' }),
    userId: z.string(),
    type: z.enum(CONTACT_METHOD_TYPES),
    address: z.string(),
    enabled: z.boolean(),
    accountEmail: z.boolean().meta({ description: "The account's own address: it can be switched off, not edited" }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ContactMethod' });

const present = (m: ContactMethod) => ({
  id: m.id,
  userId: m.userId,
  type: m.type,
  address: m.address,
  enabled: m.enabled,
  accountEmail: m.id === 'account-email',
  createdAt: m.createdAt.toISOString(),
  updatedAt: m.updatedAt.toISOString(),
});

const PAGING_NOTE =
  'A page (each escalation step) goes to every enabled method of the person paged, once per step and method: ' +
  'the account e-mail unless switched off, plus the SMS numbers, webhooks, e-mail addresses and push devices added. Someone with every method ' +
  'off still gets the account e-mail.';

/** How people are paged: their contact methods. */
export const contactMethodsRouter = defineRouter(
  {
    listContactMethods: ListContactMethods,
    addContactMethod: AddContactMethod,
    updateContactMethod: UpdateContactMethod,
    removeContactMethod: RemoveContactMethod,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listContactMethods',
        method: 'get',
        path: '/api/im/contact-methods',
        tags,
        summary: "List a user's contact methods",
        description: `The account e-mail first. ${PAGING_NOTE}`,
        query: UserQuery.extend(PageQuery),
        response: pagedSchema(MethodSchema, 'ContactMethodPage'),
        errors: WHOSE,
        handler: async ({ actor, query }) => pageOf((await use.listContactMethods.execute(actor, query.userId)).map(present), query),
      })
      .route({
        operationId: 'addContactMethod',
        method: 'post',
        path: '/api/im/contact-methods',
        tags,
        summary: 'Add a contact method',
        description: `SMS numbers in E.164; webhook URLs are vetted by the target policy (imContactMethodTargetRefused with data.reason). ${PAGING_NOTE}`,
        body: CreateBody,
        status: 201,
        response: MethodSchema.extend({
          signingSecret: z.string().nullable().meta({
            description:
              'A webhook\'s whsec_ secret, shown this once: pages carry X-Webhook-Signature t=<unix>,v1=HMAC-SHA256(secret, "<t>.<body>")',
          }),
        }).meta({ id: 'ContactMethodCreated' }),
        errors: [...WHOSE, 'imContactMethodTargetRefused'],
        handler: async ({ actor, body }) => {
          const method = await use.addContactMethod.execute(actor, body);
          return { ...present(method), signingSecret: method.secret };
        },
      })
      .route({
        operationId: 'updateContactMethod',
        method: 'patch',
        path: '/api/im/contact-methods/{id}',
        tags,
        summary: 'Switch or change a contact method',
        description: "account-email (with userId for another user) can be switched on or off; its address is the account's.",
        params: IdParams,
        query: UserQuery,
        body: UpdateBody,
        response: MethodSchema,
        errors: [...WHOSE, 'imContactMethodNotFound', 'imContactMethodTargetRefused'],
        handler: async ({ actor, params, query, body }) =>
          present(await use.updateContactMethod.execute(actor, params.id, body, query.userId)),
      })
      .route({
        operationId: 'removeContactMethod',
        method: 'delete',
        path: '/api/im/contact-methods/{id}',
        tags,
        summary: 'Remove a contact method',
        description: 'Removing account-email switches the account e-mail back on (the default).',
        params: IdParams,
        query: UserQuery,
        errors: [...WHOSE, 'imContactMethodNotFound'],
        handler: async ({ actor, params, query }) => {
          await use.removeContactMethod.execute(actor, params.id, query.userId);
        },
      });
  },
);
