import { z } from 'zod';
import { ROLES } from '../../../domain/identity/role';
import type { Invitation } from '../../../domain/identity/invitation';
import { Invitations } from '../../../application/identity/invitations';
import { ApiRouter } from '../shared/api-router';
import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';
import { defineRouter } from '../shared/router-deps';
import { presentUser } from './presenters';
import { Email, Password, SignedInSchema, SuccessSchema } from './schemas';
import { startSession } from './session-cookie';

const tags = ['Users'] as const;
const IdParams = z.object({ id: z.string().min(1).max(64) });
const TokenParams = z.object({ token: z.string().min(1).max(128) });

const InvitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: z.enum(ROLES),
    customerId: z.number().nullable(),
    invitedBy: z.string().nullable(),
    createdAt: z.string(),
    expiresAt: z.string(),
  })
  .meta({ id: 'Invitation' });

const presentInvitation = (i: Invitation) => ({
  id: i.id,
  email: i.email,
  role: i.role,
  customerId: i.customerId,
  invitedBy: i.invitedBy,
  createdAt: i.createdAt.toISOString(),
  expiresAt: i.expiresAt.toISOString(),
});

/** Invitations by e-mail: administrators invite, the invitee accepts through the link (public). */
export const invitationsRouter = defineRouter({ invitations: Invitations }, (deps, use) => {
  const invitations = () => use.invitations;
  return new ApiRouter(deps)
    .route({
      operationId: 'createInvitation',
      method: 'post',
      path: '/api/invitations',
      tags,
      status: 201,
      summary: 'Invite a person by e-mail (admins only)',
      description:
        'E-mails a link valid for 7 days, once. `mailed` says whether the e-mail went out; when it did not, ' +
        '`acceptUrl` carries the link (this answer only) for the admin to pass on.',
      body: z.object({ email: Email, role: z.enum(ROLES), customerId: z.number().int().positive().nullable().optional() }).strict(),
      response: InvitationSchema.extend({ mailed: z.boolean(), acceptUrl: z.string().nullable() }).meta({ id: 'CreatedInvitation' }),
      errors: ['roleForbidden', 'emailAlreadyRegistered', 'invitationAlreadyPending', 'invalidCustomer', 'customerScopedTokenForbidden'],
      handler: async ({ actor, body }) => {
        const created = await invitations().create(actor, body);
        return { ...presentInvitation(created.invitation), mailed: created.mailed, acceptUrl: created.acceptUrl };
      },
    })
    .route({
      operationId: 'listInvitations',
      method: 'get',
      path: '/api/invitations',
      tags,
      summary: 'Pending invitations (admins only)',
      query: PageOnlyQuery,
      response: pagedSchema(InvitationSchema, 'InvitationPage'),
      errors: ['roleForbidden', 'customerScopedTokenForbidden'],
      handler: async ({ actor, query }) => pageOf((await invitations().list(actor)).map(presentInvitation), query),
    })
    .route({
      operationId: 'revokeInvitation',
      method: 'delete',
      path: '/api/invitations/{id}',
      tags,
      summary: 'Revoke a pending invitation (admins only)',
      params: IdParams,
      response: SuccessSchema,
      errors: ['roleForbidden', 'invitationNotFound'],
      handler: async ({ actor, params }) => {
        await invitations().revoke(actor, params.id);
        return { success: true };
      },
    })
    .public({
      operationId: 'getInvitationByToken',
      method: 'get',
      path: '/api/invitations/accept/{token}',
      tags,
      summary: 'What an invitation link invites to (public)',
      params: TokenParams,
      response: z
        .object({ organizationName: z.string(), email: z.string(), role: z.enum(ROLES), expiresAt: z.string() })
        .meta({ id: 'InvitationPreview' }),
      errors: ['invitationNotFound'],
      handler: async ({ params }) => {
        const preview = await invitations().preview(params.token);
        return { ...preview, expiresAt: preview.expiresAt.toISOString() };
      },
    })
    .public({
      operationId: 'acceptInvitation',
      method: 'post',
      path: '/api/invitations/accept/{token}',
      tags,
      summary: 'Accept an invitation: creates the user and signs them in (public)',
      description: 'Answers as a sign-in does ({token, user} and the session cookie). The link works once.',
      params: TokenParams,
      body: z.object({ name: z.string().trim().min(1).max(200), password: Password }).strict(),
      response: SignedInSchema,
      errors: ['invitationNotFound', 'emailAlreadyRegistered'],
      handler: async ({ params, body, res }) => {
        const { token, user } = await invitations().accept(params.token, body);
        startSession(res, token, deps.secureCookies);
        return { token, user: presentUser(user) };
      },
    }).router;
});
