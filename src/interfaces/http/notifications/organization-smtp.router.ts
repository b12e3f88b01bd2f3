import { GetOrganizationSmtp } from '../../../application/notifications/get-organization-smtp';
import { UpdateOrganizationSmtp } from '../../../application/notifications/update-organization-smtp';
import { RemoveOrganizationSmtp } from '../../../application/notifications/remove-organization-smtp';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { SmtpBody, SmtpSchema } from './schemas';
import { presentSmtp } from './presenters';

const tags = ['Organization'] as const;

/** The organization's own SMTP server for its email channels (administrators; not customer-scoped callers). */
export const organizationSmtpRouter = defineRouter(
  {
    getOrganizationSmtp: GetOrganizationSmtp,
    updateOrganizationSmtp: UpdateOrganizationSmtp,
    removeOrganizationSmtp: RemoveOrganizationSmtp,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'getOrganizationSmtp',
        method: 'get',
        path: '/api/organization/smtp',
        tags,
        summary: "The organization's SMTP server",
        description:
          'The password is never answered (passwordSet says whether one is stored). 404 smtpNotConfigured ' +
          "while email goes through the platform's server.",
        response: SmtpSchema,
        errors: ['smtpNotConfigured', 'roleForbidden', 'customerScopedTokenForbidden'],
        handler: async ({ actor }) => presentSmtp(await use.getOrganizationSmtp.execute(actor)),
      })
      .route({
        operationId: 'updateOrganizationSmtp',
        method: 'patch',
        path: '/api/organization/smtp',
        tags,
        summary: "Set the organization's SMTP server",
        description:
          'Fields absent keep their value (a first setup names host and fromAddress). The host is vetted by ' +
          'the target policy (a non-public host answers 400 smtpHostNotPublic; CHECK_PRIVATE_ALLOWLIST admits ranges), ' +
          'then the service connects to the vetted address, negotiates TLS as configured (certificate checked against ' +
          'host) and logs in; a refusal answers 422 smtpVerificationFailed (data.reason: connectionFailed, tlsFailed, ' +
          'authenticationFailed, timeout, protocolError) and nothing is stored. The password is stored encrypted and ' +
          'never answered.',
        body: SmtpBody,
        response: SmtpSchema,
        errors: ['invalidRequestBody', 'smtpHostNotPublic', 'smtpVerificationFailed', 'roleForbidden', 'customerScopedTokenForbidden'],
        handler: async ({ actor, body }) => presentSmtp(await use.updateOrganizationSmtp.execute(actor, body)),
      })
      .route({
        operationId: 'deleteOrganizationSmtp',
        method: 'delete',
        path: '/api/organization/smtp',
        tags,
        summary: "Forget the organization's SMTP server",
        description: "Email channels go through the platform's server again.",
        errors: ['smtpNotConfigured', 'roleForbidden', 'customerScopedTokenForbidden'],
        handler: async ({ actor }) => {
          await use.removeOrganizationSmtp.execute(actor);
        },
      }).router;
  },
);
