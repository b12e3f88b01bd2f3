import { z } from 'zod';
import { ListConnections } from '../../../application/agent-access/list-connections';
import { DeleteConnection } from '../../../application/agent-access/delete-connection';
import { DecideConsent } from '../../../application/agent-access/decide-consent';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { presentConnection, presentConsent } from './presenters';
import { ConnectionSchema, ConsentSchema } from './schemas';
import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['Connected apps'] as const;
const Success = z.object({ success: z.literal(true) });

/** Connected OAuth apps: the list, disconnecting one, and the consent step that approves new ones. */
export const oauthConnectionsRouter = defineRouter(
  { deleteConnection: DeleteConnection, listConnections: ListConnections, decideConsent: DecideConsent },
  (deps, use) => {
    const disconnect = async (actor: Parameters<DeleteConnection['execute']>[0], clientId: string | undefined) => {
      await use.deleteConnection.execute(actor, clientId);
      return { success: true as const };
    };
    return new ApiRouter(deps)
      .route({
        operationId: 'listConnectedApps',
        method: 'get',
        path: '/api/oauth/connections',
        tags,
        summary: 'Connected OAuth apps and agents',
        description:
          "Approved agents and OAuth apps in the caller's tenant scope, one entry per client. Organization " +
          'admins see all of the organization; other users see those they approved.',
        query: PageOnlyQuery,
        response: pagedSchema(ConnectionSchema, 'ConnectionPage'),
        handler: async ({ actor, query }) => pageOf((await use.listConnections.execute(actor)).map(presentConnection), query),
      })
      .route({
        operationId: 'disconnectAppWithoutClientId',
        method: 'delete',
        path: '/api/oauth/connections',
        tags,
        summary: 'Disconnect: the client id is missing',
        description: 'Always 400 missingClientId: name the client as DELETE /api/oauth/connections/{clientId}.',
        response: Success,
        errors: ['missingClientId'],
        handler: ({ actor }) => disconnect(actor, undefined),
      })
      .route({
        operationId: 'disconnectApp',
        method: 'delete',
        path: '/api/oauth/connections/{clientId}',
        tags,
        summary: 'Disconnect an app',
        description:
          "Revokes the app's registrations visible to the caller and every token they minted. Unknown or " +
          'not visible: 404 unknownOauthConnection.',
        params: z.object({ clientId: z.string().max(512) }).strict(),
        response: Success,
        errors: ['missingClientId', 'unknownOauthConnection'],
        handler: ({ actor, params }) => disconnect(actor, params.clientId),
      })
      .route({
        operationId: 'decideAppConsent',
        method: 'post',
        path: '/api/oauth/consent',
        tags,
        summary: "Decide an OAuth app's request for access",
        description:
          "Signed-in sessions only. Consent codes come from an identity provider's ID-JAG naming an account " +
          'that has not approved the client: the token endpoint answers interaction_required, and the account owner ' +
          'finds the code on the consent page (or GET /api/agent-claim/context). accept (boolean), consent_code, and an ' +
          'optional scopes selection (array or space-delimited) that can only narrow the request. Checks run in this ' +
          'order: unauthorized, invalidConsentDecision, missingConsentCode, unknownConsentCode, consentCodeNotOwned, ' +
          'consentAlreadySettled, emptyConsentSelection, consentScopeEscalation; consentForwardRejected when the waiting ' +
          'request expired or was revoked meanwhile (not retryable).',
        body: z.object({
          consent_code: z.unknown().optional().meta({ description: 'string' }),
          accept: z.unknown().optional().meta({ description: 'boolean' }),
          scopes: z.unknown().optional().meta({ description: 'array of scopes, or a space-delimited string' }),
        }),
        response: ConsentSchema,
        errors: [
          'invalidConsentDecision',
          'missingConsentCode',
          'unknownConsentCode',
          'consentCodeNotOwned',
          'consentAlreadySettled',
          'emptyConsentSelection',
          'consentScopeEscalation',
          'consentForwardRejected',
        ],
        handler: async ({ actor, body }) => presentConsent(await use.decideConsent.execute(actor, body)),
      }).router;
  },
);
