import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';
import { z } from 'zod';
import { PageSubscribers, type SubscriberView } from '../../../application/status-pages/page-subscribers';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { CreateSubscriberBody, IdParams, SubscriberParams, SubscriberSchema } from './schemas';
import { withPageStatus } from './page-not-found';

const tags = ['Status pages'] as const;

const present = ({ subscriber, componentIds }: SubscriberView) => ({
  id: subscriber.id,
  channel: subscriber.channel,
  address: subscriber.address,
  componentIds: [...componentIds],
  confirmed: subscriber.confirmed,
  createdAt: subscriber.createdAt.toISOString(),
  confirmedAt: subscriber.confirmedAt?.toISOString() ?? null,
});

/** The subscribers of a status page, as its editors manage them. */
export const statusPageSubscribersRouter = defineRouter({ pageSubscribers: PageSubscribers }, (deps, use) => {
  return new ApiRouter(deps)
    .route({
      operationId: 'listStatusPageSubscribers',
      method: 'get',
      path: '/api/status-pages/{id}/subscribers',
      tags,
      summary: "List a status page's subscribers",
      description:
        'E-mail subscribers (confirmed or waiting for their confirmation) and webhooks. statusPageNotFound is 400 for a ' +
        "malformed id, 404 for a page that is missing or outside the caller's scope (answered alike).",
      params: IdParams,
      query: PageOnlyQuery,
      response: pagedSchema(SubscriberSchema, 'StatusPageSubscriberPage'),
      errors: ['statusPageNotFound'],
      handler: async ({ actor, params, query, req, res }) =>
        withPageStatus(req, res, async () => pageOf((await use.pageSubscribers.list(actor, params)).map(present), query)),
    })
    .route({
      operationId: 'addStatusPageSubscriber',
      method: 'post',
      path: '/api/status-pages/{id}/subscribers',
      tags,
      summary: 'Add a subscriber',
      status: 201,
      description:
        'An e-mail address is sent the confirmation link, as a visitor subscribing on the page is (double opt-in); a webhook ' +
        'is confirmed at once and answered with webhookSecret, shown this once. Adding an existing subscriber answers it unchanged. ' +
        'Subscribers hear of incidents, incident updates and announced maintenance of the components they follow.',
      params: IdParams,
      body: CreateSubscriberBody,
      response: SubscriberSchema.extend({ webhookSecret: z.string().nullable() }),
      errors: ['statusPageNotFound', 'roleForbidden'],
      handler: async ({ actor, params, body, req, res }) =>
        withPageStatus(req, res, async () => {
          const added = await use.pageSubscribers.add(actor, { id: params.id, subscriber: body });
          return { ...present(added), webhookSecret: added.secret };
        }),
    })
    .route({
      operationId: 'removeStatusPageSubscriber',
      method: 'delete',
      path: '/api/status-pages/{id}/subscribers/{subscriberId}',
      tags,
      summary: 'Remove a subscriber',
      description: 'invalidSubscriberId when the id is not a positive integer; subscriberNotFound when it is missing or on another page.',
      params: SubscriberParams,
      response: z.object({ success: z.literal(true), id: z.number().int() }),
      errors: ['invalidSubscriberId', 'subscriberNotFound', 'statusPageNotFound', 'roleForbidden'],
      handler: async ({ actor, params, req, res }) =>
        withPageStatus(req, res, async () => ({
          success: true as const,
          id: (await use.pageSubscribers.remove(actor, params)).id,
        })),
    }).router;
});
