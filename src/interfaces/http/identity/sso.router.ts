import { z } from 'zod';
import { SsoSettings } from '../../../application/identity/sso-settings';
import { SsoSignIn, SSO_CALLBACK_PATH } from '../../../application/identity/sso-sign-in';
import type { SsoConnection } from '../../../domain/identity/sso';
import { ROLES } from '../../../domain/identity/role';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { Email, SignedInSchema, Timestamp } from './schemas';
import { presentUser } from './presenters';
import { startSession } from './session-cookie';

const tags = ['Single sign-on'] as const;
const Role = z.enum(ROLES);

const SsoSettingsSchema = z
  .object({
    issuer: z.string(),
    clientId: z.string(),
    clientSecretSet: z.literal(true).meta({ description: 'The secret is stored encrypted and never shown.' }),
    allowedDomains: z.array(z.string()),
    defaultRole: Role,
    groupClaim: z.string().nullable(),
    groupRoles: z.record(z.string(), Role),
    ssoOnly: z.boolean(),
    breakGlassUserId: z.string().nullable(),
    redirectUri: z.string(),
    backChannelLogoutUri: z.string(),
    updatedAt: Timestamp,
  })
  .meta({ id: 'SsoSettings' });

const SsoSettingsInput = z
  .object({
    issuer: z.string().trim().min(1).max(2048),
    clientId: z.string().trim().min(1).max(512),
    clientSecret: z.string().min(1).max(4096).optional(),
    allowedDomains: z.array(z.string().trim().min(1).max(253)).min(1).max(50),
    defaultRole: Role,
    groupClaim: z.string().trim().min(1).max(100).nullable().optional(),
    // Each entry is judged by the rule behind it, so a bad one answers its code (ssoGroupRoleInvalid, data.group), not validationFailed.
    groupRoles: z
      .record(z.string().max(200), z.string().max(50))
      .optional()
      .meta({
        description: `Group (a value of groupClaim) to role (${ROLES.join(', ')}); an empty group or another role answers ssoGroupRoleInvalid naming the group in data.group`,
      }),
    ssoOnly: z.boolean().optional(),
    breakGlassUserId: z.uuid().nullable().optional(),
  })
  .strict();

/** The organization's OpenID Connect provider (admins), and sign-in through it (anyone, by e-mail domain). */
export const ssoRouter = defineRouter({ ssoSettings: SsoSettings, ssoSignIn: SsoSignIn }, (deps, use) => {
  const present = (c: SsoConnection, organizationRef: string) => ({
    issuer: c.issuer,
    clientId: c.clientId,
    clientSecretSet: true as const,
    allowedDomains: c.allowedDomains,
    defaultRole: c.defaultRole,
    groupClaim: c.groupClaim,
    groupRoles: c.groupRoles,
    ssoOnly: c.ssoOnly,
    breakGlassUserId: c.breakGlassUserId,
    redirectUri: use.ssoSignIn.redirectUri,
    backChannelLogoutUri: use.ssoSignIn.backChannelLogoutUri(organizationRef),
    updatedAt: c.updatedAt.toISOString(),
  });
  return new ApiRouter(deps)
    .route({
      operationId: 'getSsoSettings',
      method: 'get',
      path: '/api/organization/sso',
      tags,
      summary: "The organization's OpenID Connect provider (without its client secret)",
      response: SsoSettingsSchema,
      errors: ['forbidden', 'ssoNotConfigured'],
      handler: async ({ actor, caller }) => present(await use.ssoSettings.get(actor), caller.organization?.publicId ?? ''),
    })
    .route({
      operationId: 'setSsoSettings',
      method: 'put',
      path: '/api/organization/sso',
      tags,
      summary: "Configure the organization's OpenID Connect provider (admins)",
      description:
        'The issuer is discovered (/.well-known/openid-configuration) at sign-in. The client secret is stored encrypted; ' +
        'leave it out to keep the stored one. With ssoOnly, password sign-in is refused for the organization except the ' +
        'break-glass admin named.',
      body: SsoSettingsInput,
      response: SsoSettingsSchema,
      errors: ['forbidden', 'ssoIssuerInvalid', 'ssoDomainInvalid', 'ssoDomainTaken', 'ssoGroupRoleInvalid', 'ssoBreakGlassRequired'],
      handler: async ({ actor, caller, body }) =>
        present(await use.ssoSettings.configure(actor, body), caller.organization?.publicId ?? ''),
    })
    .route({
      operationId: 'removeSsoSettings',
      method: 'delete',
      path: '/api/organization/sso',
      tags,
      summary: "Remove the organization's OpenID Connect provider (password sign-in applies again; idempotent)",
      errors: ['forbidden'],
      handler: async ({ actor }) => {
        await use.ssoSettings.remove(actor);
      },
    })
    .public({
      operationId: 'startSsoSignIn',
      method: 'get',
      path: '/api/auth/sso/start',
      tags,
      summary: "Sign in with the organization's provider, found by the e-mail's domain",
      description:
        "Answers {url}, the provider's authorization URL; a browser (Accept: text/html) is redirected there (302). " +
        'The state, nonce and PKCE verifier stay on the server, good once for 10 minutes.',
      query: z.object({ email: Email }).strict(),
      response: z.object({ url: z.string() }),
      errors: ['ssoNotConfigured', 'ssoProviderUnavailable'],
      handler: async ({ query, req, res }) => {
        const url = (await use.ssoSignIn.start(query)).href;
        if (req.accepts(['json', 'html']) === 'html') return void res.redirect(302, url);
        return { url };
      },
    })
    .public({
      operationId: 'completeSsoSignIn',
      method: 'get',
      path: SSO_CALLBACK_PATH,
      tags,
      summary: 'Where the provider sends the browser back: opens the session (wsm_session cookie)',
      description:
        'Validates the state (good once), the code with the PKCE verifier, and the ID token (issuer, audience, nonce, ' +
        'signature); creates the user at the first sign-in. Answers {token, user} like a password sign-in; a browser ' +
        '(Accept: text/html) is redirected to the console.',
      query: z.object({ state: z.string().max(512).optional(), code: z.string().max(4096).optional() }).loose(),
      response: SignedInSchema,
      errors: [
        'ssoLoginInvalid',
        'ssoTokenInvalid',
        'ssoEmailNotVerified',
        'ssoEmailDomainNotAllowed',
        'accountDeactivated',
        'ssoNotConfigured',
        'ssoProviderUnavailable',
      ],
      handler: async ({ req, res }) => {
        const { token, user } = await use.ssoSignIn.complete({
          callbackQuery: new URL(req.originalUrl, 'http://callback.invalid').search.slice(1),
        });
        startSession(res, token, deps.secureCookies);
        if (req.accepts(['json', 'html']) === 'html') return void res.redirect(302, use.ssoSignIn.landingUrl);
        return { token, user: presentUser(user) };
      },
    })
    .public({
      operationId: 'ssoBackChannelLogout',
      method: 'post',
      path: '/api/auth/sso/backchannel-logout/{organizationId}',
      tags,
      summary: "The provider's back-channel logout: every session of the user it names ends",
      description: 'Form-encoded body with logout_token (OpenID Connect Back-Channel Logout 1.0).',
      params: z.object({ organizationId: z.string().max(64) }).strict(),
      body: z.object({ logout_token: z.string().min(1).max(16384) }).strict(),
      status: 200,
      errors: ['ssoNotConfigured', 'ssoTokenInvalid', 'ssoProviderUnavailable'],
      handler: async ({ params, body, res }) => {
        await use.ssoSignIn.backChannelLogout({ organizationRef: params.organizationId, logoutToken: body.logout_token });
        res.set('cache-control', 'no-store').status(200).end();
      },
    }).router;
});
