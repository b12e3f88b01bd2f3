import { z } from 'zod';
import 'zod-openapi';
import { AGENT_SCOPES } from '../../../domain/agent-access/scopes';

const Timestamp = z.iso.datetime();
const Scope = z.enum(AGENT_SCOPES);

export const TokenResponseSchema = z
  .object({
    access_token: z.string().meta({ description: 'Opaque, prefix wsma_' }),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().meta({ example: 3600 }),
    scope: z.string().meta({ description: 'Space-delimited scopes' }),
    identity_assertion: z
      .string()
      .optional()
      .meta({ description: 'A renewed identity assertion (about 24 h) for approved registrations, so they keep minting' }),
  })
  .meta({ id: 'AgentTokenResponse' });

export const ClaimInstructionsShape = {
  registration_id: z.string().meta({ description: 'Prefix reg_' }),
  claim_token: z.string().meta({ description: 'Single use, prefix clm_; also polls the claim grant' }),
  user_code: z.string().meta({ description: 'The code in claim_url, for a person to type' }),
  claim_url: z.url(),
  verification_uri: z.url(),
  verification_uri_complete: z.url(),
  interval: z.number().int().meta({ description: 'Claim polling interval in seconds (5)' }),
  expires_in: z.number().int().meta({ description: 'Seconds left in the 24-hour claim window' }),
  token_endpoint: z.url(),
};

export const RegistrationSchema = z
  .object({
    registration_id: z.string(),
    type: z.enum(['anonymous', 'service_auth']),
    status: z.enum(['active', 'pending', 'authorized', 'claimed', 'revoked', 'expired']),
    scopes: z.array(Scope),
    requested_scopes: z.array(Scope),
    client_id: z.string().nullable(),
    issuer: z.string().nullable(),
    login_hint: z.string().nullable(),
    organization_id: z.number().int().nullable(),
    customer_id: z.number().int().nullable(),
    claimed_at: Timestamp.nullable(),
    claim_expires_at: Timestamp,
  })
  .meta({ id: 'AgentRegistration' });

export const ConsentSchema = z
  .object({
    consent_code: z.string(),
    status: z.enum(['pending', 'accepted', 'denied']),
    client_id: z.string(),
    registration_id: z.string(),
    requested_scopes: z.array(Scope),
    scopes: z.array(Scope).meta({ description: 'Granted scopes (empty when denied)' }),
    decided_at: Timestamp.nullable(),
  })
  .meta({ id: 'OauthConsent' });

export const ConnectionSchema = z
  .object({
    clientId: z.string().meta({ description: 'ID-JAG client_id, or the registration id of a self-registered agent' }),
    type: z.enum(['anonymous', 'service_auth']),
    issuer: z.string().nullable().meta({ description: 'Trusted identity provider, for ID-JAG clients' }),
    scopes: z.array(Scope),
    registrationIds: z.array(z.string()),
    authorizedByUserIds: z.array(z.string()),
    customerId: z.number().int().nullable(),
    connectedAt: Timestamp,
    lastTokenIssuedAt: Timestamp.nullable(),
  })
  .meta({ id: 'OauthConnection' });

export const ClaimReferenceShape = {
  user_code: z.string().max(64).optional().meta({ description: 'The code from claim_url' }),
  claim_token: z.string().max(512).optional().meta({ description: 'Or the claim token itself' }),
};
