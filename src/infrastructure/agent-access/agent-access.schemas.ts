import { EntitySchema } from '@mikro-orm/core';
import { AgentRegistration } from '../../domain/agent-access/agent-registration';
import { AgentAccessToken } from '../../domain/agent-access/agent-access-token';
import { ConsentRequest } from '../../domain/agent-access/consent-request';
import { columns } from '../persistence/columns';

const timestamp = { type: 'datetime', columnType: 'timestamptz' } as const;
const optionalTimestamp = { ...timestamp, nullable: true } as const;

export const AgentRegistrationSchema = new EntitySchema<AgentRegistration>({
  class: AgentRegistration,
  tableName: 'agent_registrations',
  properties: columns<AgentRegistration>({
    id: { type: 'string', primary: true },
    type: { type: 'string' },
    status: { type: 'string' },
    scopes: { type: 'json' },
    requestedScopes: { type: 'json' },
    loginHint: { type: 'string', nullable: true },
    clientId: { type: 'string', nullable: true },
    issuer: { type: 'string', nullable: true },
    subject: { type: 'string', nullable: true },
    userId: { type: 'uuid', nullable: true },
    organizationId: { type: 'integer', nullable: true },
    customerId: { type: 'integer', nullable: true },
    claimTokenHash: { type: 'string', unique: true },
    userCodeHash: { type: 'string', unique: true },
    claimExpiresAt: timestamp,
    claimTokenRedeemedAt: optionalTimestamp,
    lastPolledAt: optionalTimestamp,
    claimedAt: optionalTimestamp,
    revokedAt: optionalTimestamp,
    createdAt: timestamp,
    updatedAt: timestamp,
    version: { type: 'integer', version: true },
  }),
});

export const AgentAccessTokenSchema = new EntitySchema<AgentAccessToken>({
  class: AgentAccessToken,
  tableName: 'agent_access_tokens',
  properties: columns<AgentAccessToken>({
    id: { type: 'uuid', primary: true },
    registrationId: { type: 'string' },
    tokenHash: { type: 'string', unique: true },
    scopes: { type: 'json' },
    userId: { type: 'uuid', nullable: true },
    organizationId: { type: 'integer', nullable: true },
    customerId: { type: 'integer', nullable: true },
    expiresAt: timestamp,
    revokedAt: optionalTimestamp,
    createdAt: timestamp,
  }),
});

export const ConsentRequestSchema = new EntitySchema<ConsentRequest>({
  class: ConsentRequest,
  tableName: 'agent_consent_requests',
  properties: columns<ConsentRequest>({
    id: { type: 'uuid', primary: true },
    code: { type: 'string', unique: true },
    registrationId: { type: 'string' },
    clientId: { type: 'string' },
    userId: { type: 'uuid' },
    requestedScopes: { type: 'json' },
    grantedScopes: { type: 'json' },
    status: { type: 'string' },
    decidedAt: optionalTimestamp,
    createdAt: timestamp,
    updatedAt: timestamp,
    version: { type: 'integer', version: true },
  }),
});

export const agentAccessSchemas = [AgentRegistrationSchema, AgentAccessTokenSchema, ConsentRequestSchema];
