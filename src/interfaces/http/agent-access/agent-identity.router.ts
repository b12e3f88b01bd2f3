import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { AppError } from '../../../domain/shared/app-error';
import { CLOCK } from '../../../application/shared/clock';
import { RegisterAgent } from '../../../application/agent-access/register-agent';
import { RedeemClaimToken } from '../../../application/agent-access/redeem-claim-token';
import { HandleSecurityEvent } from '../../../application/agent-access/handle-security-event';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { callerKey } from './canonical-host';
import { presentRegistration } from './presenters';
import { ClaimInstructionsShape, RegistrationSchema } from './schemas';
import { documentRaw } from './openapi-extras';

const tags = ['Agent access'] as const;

/** Agent registration, the claim of an anonymous agent, and security event intake. */
export const agentIdentityRouter = defineRouter(
  { registerAgent: RegisterAgent, redeemClaimToken: RedeemClaimToken, clock: CLOCK, handleSecurityEvent: HandleSecurityEvent },
  (deps, use) => {
    const api = new ApiRouter(deps)
      .public({
        operationId: 'registerAgent',
        method: 'post',
        path: '/agent/identity',
        tags,
        status: 201,
        summary: 'Register an agent (anonymous or service_auth)',
        description:
          'Canonical host only. anonymous: active with tools.public, answers the identity assertion ' +
          '(EdDSA JWT, 24 h) and a single-use claim token. service_auth: pending and mints nothing until the account ' +
          'named by login_hint (or, without one, the first signed-in user to open claim_url) confirms; poll the token ' +
          'endpoint with the claim grant. 30 requests per minute per client address; 503 without a code while agent auth is off.',
        body: z.object({
          type: z.unknown().optional().meta({ description: 'anonymous | service_auth' }),
          login_hint: z.unknown().optional().meta({ description: 'service_auth: email of the account to bind' }),
        }),
        response: z.object({
          ...ClaimInstructionsShape,
          type: z.enum(['anonymous', 'service_auth']),
          status: z.enum(['active', 'pending']),
          identity_assertion: z.string().optional(),
          pre_claim_scopes: z.array(z.string()).optional(),
          post_claim_scopes: z.array(z.string()).optional(),
          login_hint: z.string().nullable().optional(),
        }),
        errors: ['invalid_request', 'service_auth_not_enabled', 'rateLimited', 'agentAuthUnavailable', 'routeNotFound'],
        handler: ({ body, req }) => use.registerAgent.execute(body, callerKey(req)),
      })
      .route({
        operationId: 'claimAgent',
        method: 'post',
        path: '/agent/identity/claim',
        tags,
        summary: "Redeem an anonymous agent's claim token: it gets api.read in your organization or single customer",
        description:
          'A signed-in user (session or their API token) redeems the single-use claim token. The agent then ' +
          'mints api.read tokens from its identity assertion. Canonical host only.',
        body: z.object({ claim_token: z.unknown().optional().meta({ description: 'clm_...' }) }),
        response: RegistrationSchema,
        errors: ['invalid_request', 'invalid_claim_token', 'claimed_or_in_flight', 'claim_expired', 'nonUserSessionForbidden'],
        handler: async ({ actor, body }) => {
          if (typeof body.claim_token !== 'string' || body.claim_token === '')
            throw new AppError('invalid_request', {}, 'claim_token is required');
          const registration = await use.redeemClaimToken.execute(actor, body.claim_token);
          return presentRegistration(registration, use.clock.now());
        },
      });

    // The body was read as text by the agent access guard (before the JSON parser).
    deps.routes.routerFor('/agent/event/notify').post('/agent/event/notify', (req: Request, res: Response, next: NextFunction) => {
      const token = typeof req.body === 'string' ? req.body.trim() : '';
      if (!req.is('application/secevent+jwt') || token === '') {
        next(new AppError('invalid_request'));
        return;
      }
      use.handleSecurityEvent.execute(token).then(() => res.status(202).end(), next);
    });
    documentRaw(deps.paths, '/agent/event/notify', 'post', {
      operationId: 'receiveSecurityEvent',
      summary: 'Receive a security event token (RFC 8417, pushed as in RFC 8935)',
      tags,
      description:
        'Body: the SET, Content-Type application/secevent+jwt, signed by a trusted issuer with aud = the ' +
        'service. CAEP session-revoked and RISC account-disabled, account-purged, sessions-revoked and ' +
        'credential-compromise revoke the registrations that issuer brought in for the subject (iss_sub, email or ' +
        'opaque registration id). Wrong content type, empty body or a rejected token: 400 invalid_request, nothing more.',
      requestContentType: 'application/secevent+jwt',
      success: { status: 202, description: 'Accepted' },
      errors: ['invalid_request', 'routeNotFound'],
    });
    return api.router;
  },
);
