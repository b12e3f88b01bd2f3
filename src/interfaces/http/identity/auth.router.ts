import type { Response } from 'express';
import { z } from 'zod';
import { SignUp } from '../../../application/identity/sign-up';
import { SignIn } from '../../../application/identity/sign-in';
import { SignOut } from '../../../application/identity/sign-out';
import { VerifyTotp } from '../../../application/identity/verify-totp';
import { DisableTwoFactor, EnableTwoFactor } from '../../../application/identity/two-factor';
import { AuthenticateCaller } from '../../../application/identity/authenticate-caller';
import { incidentManagementFor } from '../../../application/identity/incident-management-access';
import { permissionsOfActor } from '../../../application/shared/actor';
import { TWO_FACTOR_CHALLENGE_MS } from '../../../domain/identity/session';
import { ApiRouter } from '../shared/api-router';
import { TWO_FACTOR_COOKIE, credentialOf } from '../shared/http-context';
import { defineRouter } from '../shared/router-deps';
import { presentUser } from './presenters';
import { endSession, identityCookie, startSession as startSessionCookie } from './session-cookie';
import { Email, Password, SessionSchema, SignedInSchema, SuccessSchema } from './schemas';

const tags = ['Authentication'] as const;

/** Sign-up, sign-in with an optional second factor, sessions, and two-step verification (better-auth conventions). */
export const authRouter = defineRouter(
  {
    signUp: SignUp,
    signIn: SignIn,
    authenticateCaller: AuthenticateCaller,
    verifyTotp: VerifyTotp,
    signOut: SignOut,
    enableTwoFactor: EnableTwoFactor,
    disableTwoFactor: DisableTwoFactor,
  },
  (deps, use) => {
    const cookie = (maxAge: number) => identityCookie(deps.secureCookies, maxAge);
    const startSession = (res: Response, token: string) => startSessionCookie(res, token, deps.secureCookies);

    return new ApiRouter(deps)
      .public({
        operationId: 'signUpWithEmail',
        method: 'post',
        path: '/api/auth/sign-up/email',
        tags,
        summary: 'Create an organization and its first administrator',
        body: z
          .object({
            name: z.string().trim().min(1).max(200),
            email: Email,
            password: Password,
            organizationName: z.string().trim().min(1).max(200),
          })
          .strict(),
        response: SignedInSchema,
        errors: ['signupClosed', 'emailAlreadyRegistered'],
        handler: async ({ body, res }) => {
          const { token, user, organization } = await use.signUp.execute(body);
          startSession(res, token);
          return { token, user: presentUser(user, organization) };
        },
      })
      .public({
        operationId: 'signInWithEmail',
        method: 'post',
        path: '/api/auth/sign-in/email',
        tags,
        summary: 'Sign in with email and password',
        description:
          'Answers {token, user} and sets the HttpOnly session cookie. With two-step verification on, answers ' +
          '{twoFactorRedirect: true} and sets a short-lived challenge cookie; complete at /api/auth/two-factor/verify-totp.',
        body: z.object({ email: Email, password: z.string().min(1).max(256), rememberMe: z.boolean().optional() }).strict(),
        response: z.union([SignedInSchema, z.object({ twoFactorRedirect: z.literal(true) })]),
        errors: ['invalidCredentials', 'accountDeactivated', 'organizationSuspended', 'rateLimited'],
        handler: async ({ body, res }) => {
          const result = await use.signIn.execute(body);
          if (result.kind === 'twoFactorRequired') {
            res.cookie(TWO_FACTOR_COOKIE, result.challengeToken, cookie(TWO_FACTOR_CHALLENGE_MS));
            return { twoFactorRedirect: true };
          }
          startSession(res, result.token);
          return { token: result.token, user: presentUser(result.user) };
        },
      })
      .public({
        operationId: 'verifyTwoFactorCode',
        method: 'post',
        path: '/api/auth/two-factor/verify-totp',
        tags,
        summary: 'Verify a two-step code: completes a sign-in, or steps the current session up for 5 minutes',
        body: z.object({ code: z.string().trim().min(6).max(16), trustDevice: z.boolean().optional() }).strict(),
        response: z.object({ token: z.string().optional(), user: z.any() }),
        errors: ['invalidTwoFactorCode', 'mfa_step_up_locked', 'twoFactorChallengeMissing', 'twoFactorNotEnabled'],
        handler: async ({ body, req, res }) => {
          const { token } = credentialOf(req);
          const caller = token ? await use.authenticateCaller.execute(token).catch(() => undefined) : undefined;
          const challengeToken = (req.cookies as Record<string, string> | undefined)?.[TWO_FACTOR_COOKIE];
          const result = await use.verifyTotp.execute({ code: body.code, actor: caller?.actor, challengeToken });
          if (result.kind === 'signedIn') {
            res.clearCookie(TWO_FACTOR_COOKIE, { path: '/' });
            startSession(res, result.token);
            return { token: result.token, user: presentUser(result.user) };
          }
          return { token: '', user: presentUser(result.user) };
        },
      })
      .route({
        operationId: 'signOut',
        method: 'post',
        path: '/api/auth/sign-out',
        tags,
        summary: 'End the current session',
        response: SuccessSchema,
        handler: async ({ actor, res }) => {
          await use.signOut.execute(actor);
          endSession(res);
          return { success: true };
        },
      })
      .route({
        operationId: 'getSession',
        method: 'get',
        path: '/api/auth/get-session',
        tags,
        summary: "The caller's session and user",
        response: SessionSchema,
        handler: async ({ caller, req }) => ({
          session: {
            userId: caller.user.id,
            expiresAt: caller.expiresAt?.toISOString() ?? null,
            token: caller.actor.kind === 'session' ? (credentialOf(req).token ?? '') : '',
          },
          user: presentUser(caller.user, caller.organization),
          incidentManagement: incidentManagementFor(caller),
          can: permissionsOfActor(caller.actor),
        }),
      })
      .route({
        operationId: 'enableTwoFactor',
        method: 'post',
        path: '/api/auth/two-factor/enable',
        tags,
        summary: 'Start two-step enrolment; the first verified code turns it on',
        body: z.object({ password: z.string().min(1).max(256) }).strict(),
        response: z.object({ totpURI: z.string(), backupCodes: z.array(z.string()) }),
        errors: ['invalidCredentials', 'twoFactorAlreadyEnabled', 'nonUserSessionForbidden'],
        handler: ({ actor, body }) => use.enableTwoFactor.execute(actor, body),
      })
      .route({
        operationId: 'disableTwoFactor',
        method: 'post',
        path: '/api/auth/two-factor/disable',
        tags,
        summary: 'Turn two-step verification off',
        body: z.object({ password: z.string().min(1).max(256) }).strict(),
        response: SuccessSchema,
        errors: ['invalidCredentials', 'nonUserSessionForbidden'],
        handler: async ({ actor, body }) => {
          await use.disableTwoFactor.execute(actor, body);
          return { success: true };
        },
      }).router;
  },
);
