import type { Request, Response } from 'express';
import { z } from 'zod';
import { AppError } from '../../../domain/shared/app-error';
import { CLAIM_GRANT, IssueAccessToken, JWT_BEARER_GRANT } from '../../../application/agent-access/issue-access-token';
import { RevokeToken } from '../../../application/agent-access/revoke-token';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { callerKey } from './canonical-host';
import { presentToken } from './presenters';
import { TokenResponseSchema } from './schemas';
import { documentFormBody } from './openapi-extras';

const tags = ['Agent access'] as const;
const ERRORS_NOTE =
  'Errors use the service envelope like every endpoint: the OAuth error code is data.code, ' +
  'with data.error_description where there is more to say (RFC 6749 section 5.2 names, envelope shape).';

/** RFC 6749 section 3.2: form-encoded, each parameter at most once. */
function formParams(req: Request): Record<string, string> {
  if (!req.is('application/x-www-form-urlencoded')) {
    throw new AppError('invalid_request', {}, 'The body must be application/x-www-form-urlencoded');
  }
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries((req.body ?? {}) as Record<string, unknown>)) {
    if (typeof value !== 'string') throw new AppError('invalid_request', {}, `Parameter ${name} repeated`);
    params[name] = value;
  }
  return params;
}

const noStore = (res: Response) => res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });

const TokenRequestDoc = z.object({
  grant_type: z.enum([JWT_BEARER_GRANT, CLAIM_GRANT]),
  assertion: z.string().optional().meta({ description: 'jwt-bearer: the identity assertion, or an ID-JAG of a trusted issuer' }),
  claim_token: z.string().optional().meta({ description: 'Claim grant: the clm_ claim token (alias: device_code)' }),
  client_id: z.string().optional().meta({ description: 'Optional; must match the assertion (registration id or ID-JAG client_id)' }),
  scope: z.string().optional().meta({ description: 'Optional narrowing of the granted scopes' }),
});
const RevokeRequestDoc = z.object({ token: z.string(), token_type_hint: z.string().optional() });

/** The token endpoint and revocation (RFC 7523 jwt-bearer, RFC 8628-style claim polling, RFC 7009). */
export const oauthTokenRouter = defineRouter({ issueAccessToken: IssueAccessToken, revokeToken: RevokeToken }, (deps, use) => {
  const api = new ApiRouter(deps)
    .public({
      operationId: 'createAgentAccessToken',
      method: 'post',
      path: '/oauth2/token',
      tags,
      summary: 'Mint an agent access token',
      description:
        `grant_type ${JWT_BEARER_GRANT} with assertion=<identity assertion or ID-JAG>, or the claim grant ` +
        `${CLAIM_GRANT} with claim_token, polled at most every 5 seconds. Answers an opaque wsma_ token valid 3600 s. ` +
        `60 requests per minute per client address; 503 without a code while agent auth is off. ${ERRORS_NOTE}`,
      body: z.unknown(),
      response: TokenResponseSchema,
      errors: [
        'invalid_request',
        'unsupported_grant_type',
        'invalid_grant',
        'issuer_not_enabled',
        'authorization_pending',
        'slow_down',
        'expired_token',
        'login_required',
        'interaction_required',
        'rateLimited',
        'agentAuthUnavailable',
      ],
      handler: async ({ req, res }) => {
        const minted = await use.issueAccessToken.execute(formParams(req), callerKey(req));
        noStore(res);
        return presentToken(minted);
      },
    })
    .public({
      operationId: 'revokeAgentAccessToken',
      method: 'post',
      path: '/oauth2/revoke',
      tags,
      summary: 'Revoke an agent access token (RFC 7009)',
      description:
        'Form-encoded token (and optional token_type_hint, access_token). Always 200, also for unknown or ' +
        'already revoked tokens; a revoked token then answers 401. Revoking an identity assertion revokes its whole ' +
        'registration and every token minted from it.',
      body: z.unknown(),
      response: z.object({}),
      handler: async ({ req, res }) => {
        const token = req.is('application/x-www-form-urlencoded') ? (req.body as Record<string, unknown>).token : undefined;
        await use.revokeToken.execute(typeof token === 'string' ? token : undefined);
        noStore(res);
        return {};
      },
    });
  documentFormBody(deps.paths, '/oauth2/token', 'post', TokenRequestDoc);
  documentFormBody(deps.paths, '/oauth2/revoke', 'post', RevokeRequestDoc);
  return api.router;
});
