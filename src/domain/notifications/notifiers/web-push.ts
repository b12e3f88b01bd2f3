import type { NotifierDescriptor } from './notifier';
import { invalid } from './config-rules';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The users a web-push channel reaches: uuids, each once, 1 to 50. */
function userIds(values: readonly string[] | undefined): string[] {
  if (!values || values.length === 0) throw invalid('config.userIds', 'required');
  values.forEach((value, i) => {
    if (!UUID.test(value)) throw invalid(`config.userIds.${i}`, 'notAUserId');
  });
  return [...new Set(values.map((v) => v.toLowerCase()))];
}

/**
 * Web Push (RFC 8030, VAPID RFC 8292, payload encrypted per RFC 8291) to every device the named
 * users of the channel's organization subscribed in the console. The notification opens the
 * incident; its action acknowledges it with a short-lived, single-use grant carried in the
 * encrypted payload. Channels are compared by user.
 */
export const webPush = {
  type: 'web-push',
  label: 'Web Push (console devices)',
  about: 'userIds whose subscribed devices are notified',
  fields: [
    {
      name: 'userIds',
      mark: 'target',
      label: 'People',
      recipient: true,
      users: true,
      help: "Ids of users of the organization who see the channel's customer; each of the devices they subscribed in the console is notified",
      input: { kind: 'list', itemMax: 36, min: 1, max: 50 },
    },
  ],
  normalize: (config) => ({ userIds: userIds(config.userIds) }),
  transport: 'web-push',
  sample: { userIds: ['0b6f3c1e-2d4a-4f5b-9c8d-7e6f5a4b3c2d'] },
} as const satisfies NotifierDescriptor<'web-push'>;
