import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { isAppError } from '../../../domain/shared/app-error';
import type { ErrorCode } from '../../../domain/shared/error-codes';
import { CLOCK } from '../../../application/shared/clock';
import { AuthenticateCaller, type Caller } from '../../../application/identity/authenticate-caller';
import { GetClaimContext, type ClaimContext } from '../../../application/agent-access/get-claim-context';
import { ConfirmClaim } from '../../../application/agent-access/confirm-claim';
import { ApiRouter } from '../shared/api-router';
import { credentialOf } from '../shared/http-context';
import { sendError } from '../shared/envelope';
import { MESSAGES } from '../shared/messages';
import { defineRouter } from '../shared/router-deps';
import { presentRegistration } from './presenters';
import { ClaimReferenceShape, RegistrationSchema } from './schemas';
import { renderConsentPage, type ConsentView } from './consent-page';
import { documentRaw } from './openapi-extras';

const tags = ['Agent access'] as const;
const ClaimReference = z.object(ClaimReferenceShape).strict();
const reference = (sent: z.output<typeof ClaimReference>) => ({ userCode: sent.user_code, claimToken: sent.claim_token });

const REFUSALS: Partial<Record<ErrorCode, string>> = {
  invalid_claim_token: 'This code is unknown, or not meant for your account.',
  claim_expired: 'This request expired: its 24-hour window closed. Ask the agent to register again.',
  claimed_or_in_flight: 'This agent has already been approved.',
  nonUserSessionForbidden: 'Sign in with your own account to approve agents.',
};

/** The signed-in user's confirmation of an agent claim: context, confirm, and the consent page at claim_url. */
export const agentClaimRouter = defineRouter(
  { clock: CLOCK, getClaimContext: GetClaimContext, confirmClaim: ConfirmClaim, authenticateCaller: AuthenticateCaller },
  (deps, use) => {
    const now = () => use.clock.now();
    const presentContext = ({ registration, consent }: ClaimContext, caller: Caller) => ({
      ...presentRegistration(registration, now()),
      consent_code: consent?.status === 'pending' ? consent.code : null,
      confirm_endpoint: registration.isIdJag ? '/api/oauth/consent' : '/api/agent-claim/confirm',
      grant: {
        user_id: caller.user.id,
        email: caller.user.email,
        organization_id: caller.actor.scope.organizationId,
        organization_name: caller.organization.name,
        customer_id: caller.actor.scope.customerId,
      },
    });

    const api = new ApiRouter(deps)
      .route({
        operationId: 'getAgentClaimContext',
        method: 'get',
        path: '/api/agent-claim/context',
        tags,
        summary: 'What the signed-in user is asked to approve',
        description:
          'Signed-in sessions only. Name the registration by the user_code of its claim_url (or its claim ' +
          'token). Refuses as the confirmation would: invalid_claim_token answers 404 here (unknown or wrong-type code, ' +
          'another account bound, access spanning tenants). For an OAuth app (ID-JAG), consent_code is the code to ' +
          'decide at POST /api/oauth/consent.',
        query: ClaimReference,
        response: RegistrationSchema.extend({
          consent_code: z.string().nullable(),
          confirm_endpoint: z.string(),
          grant: z.object({
            user_id: z.string(),
            email: z.string(),
            organization_id: z.number().int(),
            organization_name: z.string(),
            customer_id: z.number().int().nullable(),
          }),
        }),
        errors: ['invalid_claim_token', 'claim_expired', 'claimed_or_in_flight', 'nonUserSessionForbidden'],
        handler: async ({ actor, caller, query, req, res }) => {
          try {
            return presentContext(await use.getClaimContext.execute(actor, reference(query)), caller);
          } catch (error) {
            if (!isAppError(error) || error.code !== 'invalid_claim_token') throw error;
            sendError(req, res, 404, { code: 'invalid_claim_token' }, MESSAGES.invalid_claim_token);
            return undefined;
          }
        },
      })
      .route({
        operationId: 'confirmAgentClaim',
        method: 'post',
        path: '/api/agent-claim/confirm',
        tags,
        summary: 'Approve the agent: service_auth becomes authorized, an anonymous agent is claimed (api.read)',
        description:
          'Signed-in sessions only; the user must be the bound account (login_hint). Access resolves to the ' +
          "user's organization or single customer. The agent's next claim-grant poll answers an api.read token.",
        body: ClaimReference,
        response: RegistrationSchema,
        errors: ['invalid_claim_token', 'claim_expired', 'claimed_or_in_flight', 'nonUserSessionForbidden'],
        handler: async ({ actor, body }) => presentRegistration(await use.confirmClaim.execute(actor, reference(body)), now()),
      });

    deps.routes.routerFor('/agent/claim').get('/agent/claim', async (req: Request, res: Response) => {
      const nonce = randomBytes(16).toString('base64');
      res.set({
        'Content-Security-Policy':
          `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; ` +
          `connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
        'X-Frame-Options': 'DENY',
        'Referrer-Policy': 'no-referrer',
        'Cache-Control': 'no-store',
      });
      res.type('html').send(renderConsentPage(await consentView(req), nonce));
    });
    documentRaw(deps.paths, '/agent/claim', 'get', {
      operationId: 'getConsentPage',
      summary: 'Consent page at claim_url (HTML)',
      tags,
      query: z.object({ user_code: z.string().optional() }),
      description:
        'Canonical host only. Shows the signed-in user which agent asks for which scopes in which tenant, ' +
        'and lets them approve (or, for OAuth apps, narrow the scopes or deny). Offers sign-in when needed.',
      success: { status: 200, contentType: 'text/html', description: 'The page' },
      errors: ['routeNotFound'],
    });

    async function consentView(req: Request): Promise<ConsentView> {
      const userCode = typeof req.query.user_code === 'string' ? req.query.user_code.slice(0, 64) : '';
      if (!userCode) return { kind: 'askCode' };
      const { token } = credentialOf(req);
      const caller = token ? await use.authenticateCaller.execute(token).catch(() => undefined) : undefined;
      if (!caller || caller.actor.kind !== 'session') return { kind: 'signIn', userCode };
      try {
        const context = await use.getClaimContext.execute(caller.actor, { userCode });
        return {
          kind: 'approve',
          userCode,
          registration: context.registration,
          consentCode: context.consent?.status === 'pending' ? context.consent.code : null,
          user: { email: caller.user.email, organizationName: caller.organization.name, customerId: caller.actor.scope.customerId },
        };
      } catch (error) {
        if (!isAppError(error)) throw error;
        return { kind: 'refused', message: REFUSALS[error.code] ?? MESSAGES[error.code] ?? 'This request cannot be approved.' };
      }
    }
    return api.router;
  },
);
