import { z } from 'zod';
import { RotateSigningKey } from '../../../application/agent-access/rotate-signing-key';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';

/** Platform administration of the identity-assertion signing keys. */
export const signingKeysRouter = defineRouter({ rotateSigningKey: RotateSigningKey }, (deps, use) => {
  return new ApiRouter(deps).route({
    operationId: 'rotateAgentSigningKey',
    method: 'post',
    path: '/api/platform-admin/agent-signing-keys/rotate',
    tags: ['Platform administration'],
    summary: 'Rotate the agent identity-assertion signing key',
    description:
      'Platform admins only. New assertions are signed with a new EdDSA key; retired public keys stay in the ' +
      'JWKS for 25 hours, so assertions already issued verify until they expire.',
    response: z.object({ kid: z.string(), previousKid: z.string().nullable() }),
    errors: ['platformAdminRequired'],
    handler: ({ actor }) => use.rotateSigningKey.execute(actor),
  }).router;
});
