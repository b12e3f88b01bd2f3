import { z } from 'zod';
import { RecordHeartbeat } from '../../../application/monitoring/record-heartbeat';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';

const Token = z.object({ token: z.string().min(1).max(128) });
const Received = z.object({ ok: z.literal(true), receivedAt: z.iso.datetime() });

/** The ping URL of heartbeat monitors (heartbeatUrl): no credentials, the token in the path is the secret. */
export const heartbeatsRouter = defineRouter({ recordHeartbeat: RecordHeartbeat }, (deps, use) => {
  const ping = async (token: string) => {
    const { receivedAt } = await use.recordHeartbeat.execute({ token });
    return { ok: true as const, receivedAt: receivedAt.toISOString() };
  };
  const description =
    'Records a ping of the heartbeat monitor owning the token (GET, HEAD or POST; any body is ignored). ' +
    'Unknown tokens answer 404 websiteNotFound.';
  return new ApiRouter(deps)
    .public({
      operationId: 'pingHeartbeat',
      method: 'get',
      path: '/api/heartbeats/{token}',
      tags: ['Heartbeats'],
      summary: 'Heartbeat ping',
      description,
      params: Token,
      response: Received,
      errors: ['websiteNotFound'],
      handler: ({ params }) => ping(params.token),
    })
    .public({
      operationId: 'postHeartbeat',
      method: 'post',
      path: '/api/heartbeats/{token}',
      tags: ['Heartbeats'],
      summary: 'Heartbeat ping',
      description,
      params: Token,
      response: Received,
      errors: ['websiteNotFound'],
      handler: ({ params }) => ping(params.token),
    }).router;
});
