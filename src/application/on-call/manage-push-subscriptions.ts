import { AppError } from '../../domain/shared/app-error';
import { assertPushSubscription, type PushSubscription } from '../../domain/on-call/web-push';
import type { Actor } from '../shared/actor';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { Transaction } from '../shared/transaction';
import type { PushSubscriptionStore, VapidKeys } from './push-ports';

/** The person behind the caller: push subscriptions are a user's, never a token's (validationFailed otherwise). */
function personOf(actor: Actor): string {
  if (actor.userId === null) throw new AppError('validationFailed', { field: 'userId', reason: 'required' });
  return actor.userId;
}

/** The caller's subscribed devices, and the key the console subscribes a new one with. */
export class ListPushSubscriptions {
  constructor(
    private readonly store: PushSubscriptionStore,
    private readonly vapid: VapidKeys,
  ) {}

  async execute(actor: Actor): Promise<{ vapidPublicKey: string; items: PushSubscription[] }> {
    const userId = personOf(actor);
    const [{ publicKey }, items] = await Promise.all([this.vapid.keys(), this.store.list(actor.scope.organizationId, userId)]);
    return { vapidPublicKey: publicKey, items };
  }
}

export interface AddPushSubscriptionInput {
  readonly endpoint: string;
  readonly keys: { readonly p256dh: string; readonly auth: string };
  readonly label?: string | null;
}

/** Subscribes one of the caller's devices (the browser's PushSubscription); the same endpoint again answers the one kept. */
export class AddPushSubscription {
  constructor(
    private readonly store: PushSubscriptionStore,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, input: AddPushSubscriptionInput, tx: Transaction): Promise<PushSubscription> {
    const userId = personOf(actor);
    assertPushSubscription({ endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth });
    return this.store.put(
      {
        id: this.ids.uuid(),
        organizationId: actor.scope.organizationId,
        userId,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        label: input.label ?? null,
        createdAt: this.clock.now(),
      },
      tx,
    );
  }
}

/** Unsubscribes one of the caller's devices (pushSubscriptionNotFound for any other). */
export class RemovePushSubscription {
  constructor(private readonly store: PushSubscriptionStore) {}

  async execute(actor: Actor, id: string, tx: Transaction): Promise<void> {
    if (!(await this.store.remove(actor.scope.organizationId, personOf(actor), id, tx))) throw new AppError('pushSubscriptionNotFound');
  }
}
