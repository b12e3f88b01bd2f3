import { CLOCK, type Clock } from '../../application/shared/clock';
import { ID_GENERATOR } from '../../application/shared/id-generator';
import { TRANSACTION_RUNNER } from '../../application/shared/transaction';
import { SECRET_TOKENS, USER_REPOSITORY } from '../../application/identity/ports';
import { CREDENTIAL_CIPHER } from '../../application/monitoring/ports';
import { AcknowledgeIncident } from '../../application/incidents/acknowledge-incident';
import { AcknowledgeImIncident } from '../../application/incident-management/acknowledge-im-incident';
import {
  ACK_GRANT_STORE,
  PUSH_SUBSCRIPTION_STORE,
  PUSH_TRANSPORT,
  VAPID_KEYS,
  type AckGrantStore,
  type PushSubscriptionStore,
  type VapidKeys,
} from '../../application/on-call/push-ports';
import { AddPushSubscription, ListPushSubscriptions, RemovePushSubscription } from '../../application/on-call/manage-push-subscriptions';
import { PushSender } from '../../application/on-call/push-sender';
import { AcknowledgeWithPushGrant } from '../../application/on-call/acknowledge-with-push-grant';
import { SqlPushSubscriptions } from '../../infrastructure/on-call/sql-push-subscriptions';
import { SqlAckGrants } from '../../infrastructure/on-call/sql-ack-grants';
import { SqlVapidKeys } from '../../infrastructure/on-call/sql-vapid-keys';
import { vapidSubject, WebPushTransport } from '../../infrastructure/on-call/web-push-transport';
import { PinnedHttpPool } from '../../infrastructure/protocols/http/pinned-http-pool';
import type { SqlRunner } from '../../infrastructure/persistence/database';
import { checkUserAgent } from '../../domain/checks/user-agent';
import { PRODUCT } from '../product';
import type { AppConfig } from '../config';
import { CONFIG, SQL } from '../tokens';
import type { Single } from './bindings';

/** How long one push to a push service may take (as a webhook's POST). */
const PUSH_TIMEOUT_MS = 10_000;

/**
 * Web Push: the VAPID keys, people's subscribed devices, the acknowledgement grants, the transport
 * (on the notification connections' pool, so through the notification target policy), the sender
 * of the `web-push` transport and direct recipient, and the use cases of the push routes.
 */
export function bindWebPush(single: Single): void {
  const clock = (c: Parameters<Parameters<Single>[1]>[0]) => c.get<Clock>(CLOCK);
  single(PUSH_SUBSCRIPTION_STORE, (c) => new SqlPushSubscriptions(c.get<SqlRunner>(SQL), c.get(CREDENTIAL_CIPHER)));
  single(ACK_GRANT_STORE, (c) => new SqlAckGrants(c.get<SqlRunner>(SQL)));
  single(VAPID_KEYS, (c) => {
    const now = clock(c);
    return new SqlVapidKeys(c.get<SqlRunner>(SQL), c.get(CREDENTIAL_CIPHER), () => now.now());
  });
  single(PUSH_TRANSPORT, (c) => {
    const { publicBaseUrl } = c.get<AppConfig>(CONFIG);
    const now = clock(c);
    return new WebPushTransport(
      c.get(PinnedHttpPool),
      c.get<VapidKeys>(VAPID_KEYS),
      vapidSubject(publicBaseUrl, null),
      checkUserAgent(PRODUCT.name, PRODUCT.version, publicBaseUrl),
      PUSH_TIMEOUT_MS,
      () => now.now(),
    );
  });
  const store = (c: Parameters<Parameters<Single>[1]>[0]) => c.get<PushSubscriptionStore>(PUSH_SUBSCRIPTION_STORE);
  single(
    PushSender,
    (c) => new PushSender(store(c), c.get<AckGrantStore>(ACK_GRANT_STORE), c.get(PUSH_TRANSPORT), c.get(SECRET_TOKENS), clock(c)),
  );
  single(ListPushSubscriptions, (c) => new ListPushSubscriptions(store(c), c.get<VapidKeys>(VAPID_KEYS)));
  single(AddPushSubscription, (c) => new AddPushSubscription(store(c), c.get(ID_GENERATOR), clock(c)));
  single(RemovePushSubscription, (c) => new RemovePushSubscription(store(c)));
  single(
    AcknowledgeWithPushGrant,
    (c) =>
      new AcknowledgeWithPushGrant(
        c.get<AckGrantStore>(ACK_GRANT_STORE),
        c.get(USER_REPOSITORY),
        c.get(SECRET_TOKENS),
        { incident: c.get(AcknowledgeIncident), im: c.get(AcknowledgeImIncident) },
        c.get(TRANSACTION_RUNNER),
        clock(c),
      ),
  );
}
