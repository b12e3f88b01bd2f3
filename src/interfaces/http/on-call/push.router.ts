import { z } from 'zod';
import type { PushSubscription } from '../../../domain/on-call/web-push';
import { AddPushSubscription, ListPushSubscriptions, RemovePushSubscription } from '../../../application/on-call/manage-push-subscriptions';
import { AcknowledgeWithPushGrant } from '../../../application/on-call/acknowledge-with-push-grant';
import { TRANSACTION_RUNNER } from '../../../application/shared/transaction';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';

const tags = ['Push'] as const;

const Base64Url = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(200)
    .meta({ description: `${what}, base64url as the browser's PushSubscription.toJSON() gives it` });
const CreateBody = z
  .object({
    endpoint: z.string().trim().min(1).max(2048).meta({ description: "The push service's endpoint (PushSubscription.endpoint)" }),
    expirationTime: z.number().nullable().optional().meta({ description: 'As the browser gives it; not used' }),
    keys: z.object({ p256dh: Base64Url('The P-256 public key (65 bytes)'), auth: Base64Url('The auth secret (16 bytes)') }).strict(),
    label: z.string().trim().min(1).max(100).nullable().optional().meta({ description: 'What you call the device ("Phone")' }),
  })
  .strict()
  .meta({ id: 'PushSubscriptionCreate' });
const SubscriptionSchema = z
  .object({
    id: z.string().meta({ description: 'uuid: the address of a web-push contact method' }),
    endpointOrigin: z.string().meta({ description: "The push service's origin (the endpoint itself is a credential: never shown)" }),
    label: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'PushSubscription' });
const ListSchema = z
  .object({
    vapidPublicKey: z.string().meta({ description: "The deployment's VAPID public key: PushManager.subscribe's applicationServerKey" }),
    items: z.array(SubscriptionSchema),
  })
  .meta({ id: 'PushSubscriptionList' });
const IdParams = z.object({ id: z.string().trim().min(1).max(64) });
const AckBody = z
  .object({ grant: z.string().trim().min(1).max(200).meta({ description: 'The grant the notification carried (wpg_...)' }) })
  .strict()
  .meta({ id: 'PushAcknowledgement' });
const IncidentParams = z.object({ id: z.string().trim().min(1).max(64).meta({ description: 'The incident the grant was issued for' }) });

const present = (s: PushSubscription) => ({
  id: s.id,
  endpointOrigin: new URL(s.endpoint).origin,
  label: s.label,
  createdAt: s.createdAt.toISOString(),
});

const GRANT_NOTE =
  'No session and no token: the grant in the body is the credential. A notification about an open incident carries one ' +
  'grant per device, good for 30 minutes, once, for that incident only, acting as the person it was sent to (their role and ' +
  'customer scope as they are now). Refusals: pushGrantInvalid (unknown, or its person is gone), pushGrantMismatch ' +
  '(another incident, or another organization), pushGrantUsed, pushGrantExpired.';

/** Web Push: the devices a person subscribed, and the acknowledgement a notification's action makes. */
export const pushRouter = defineRouter(
  {
    listPushSubscriptions: ListPushSubscriptions,
    addPushSubscription: AddPushSubscription,
    removePushSubscription: RemovePushSubscription,
    acknowledgeWithPushGrant: AcknowledgeWithPushGrant,
    transactions: TRANSACTION_RUNNER,
  },
  (deps, use) =>
    new ApiRouter(deps)
      .route({
        operationId: 'listPushSubscriptions',
        method: 'get',
        path: '/api/me/push-subscriptions',
        tags,
        summary: 'Your devices subscribed to Web Push, and the key to subscribe another',
        description:
          "The caller's own devices (a user's: a token acting for no user answers validationFailed). Incidents reach them through a " +
          'web-push channel naming the user, and pages through a web-push contact method naming the device.',
        response: ListSchema,
        handler: async ({ actor }) => {
          const { vapidPublicKey, items } = await use.listPushSubscriptions.execute(actor);
          return { vapidPublicKey, items: items.map(present) };
        },
      })
      .route({
        operationId: 'addPushSubscription',
        method: 'post',
        path: '/api/me/push-subscriptions',
        tags,
        summary: 'Subscribe one of your devices to Web Push',
        description:
          "The browser's PushSubscription (toJSON()), made with vapidPublicKey. The same endpoint again answers the subscription " +
          'kept (201 either way); an endpoint another user had subscribed (a shared browser) becomes yours.',
        body: CreateBody,
        status: 201,
        response: SubscriptionSchema,
        handler: async ({ actor, body }) => present(await use.transactions.run((tx) => use.addPushSubscription.execute(actor, body, tx))),
      })
      .route({
        operationId: 'removePushSubscription',
        method: 'delete',
        path: '/api/me/push-subscriptions/{id}',
        tags,
        summary: 'Unsubscribe one of your devices',
        description: 'The web-push contact methods naming it go with it.',
        params: IdParams,
        errors: ['pushSubscriptionNotFound'],
        handler: async ({ actor, params }) => {
          await use.transactions.run((tx) => use.removePushSubscription.execute(actor, params.id, tx));
        },
      })
      .public({
        operationId: 'acknowledgeIncidentWithPushGrant',
        method: 'post',
        path: '/api/push/incidents/{id}/acknowledge',
        tags,
        summary: "Acknowledge a monitor incident from its push notification's action",
        description: GRANT_NOTE,
        params: IncidentParams,
        body: AckBody,
        errors: [
          'pushGrantInvalid',
          'pushGrantMismatch',
          'pushGrantUsed',
          'pushGrantExpired',
          'incidentNotFound',
          'incidentAlreadyResolved',
          'roleForbidden',
        ],
        handler: async ({ params, body }) =>
          use.acknowledgeWithPushGrant.execute({ kind: 'incident', incidentRef: params.id, token: body.grant }),
      })
      .public({
        operationId: 'acknowledgeImIncidentWithPushGrant',
        method: 'post',
        path: '/api/push/im-incidents/{id}/acknowledge',
        tags,
        summary: "Acknowledge an incident-management incident from its page's push notification",
        description: GRANT_NOTE,
        params: IncidentParams,
        body: AckBody,
        errors: ['pushGrantInvalid', 'pushGrantMismatch', 'pushGrantUsed', 'pushGrantExpired', 'imIncidentNotFound'],
        handler: async ({ params, body }) =>
          use.acknowledgeWithPushGrant.execute({ kind: 'im', incidentRef: params.id, token: body.grant }),
      }).router,
);
