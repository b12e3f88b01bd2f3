import { useState } from 'preact/hooks';
import { api, ok, type Customer, type Schemas } from '../../api/client';
import { ErrorText } from '../../components/field';
import { Link } from '../../components/link';
import { loadCustomers } from '../../monitors/monitor-rows';
import { useLiveReload } from '../../monitors/use-live-reload';
import { navigate } from '../../router';
import type { User } from '../../session';
import { may } from '../../permissions';
import { RemoveButton } from '../customers/remove-button';
import { ChannelForm, type Channel } from './channel-form';
import { entryOf, textsOf, typeLabel } from './channel-types';
import { scopeOf } from './channels-page';
import { Deliveries } from './deliveries';
import { Health } from './health';
import { SigningSecret } from './signing-secret';
import { TestButton } from './test-button';
import './channels.css';
import { Loading } from '../../components/loading';
import { useResource } from '../../components/use-resource';

type Delivery = Schemas['NotificationDelivery'];

interface Loaded {
  channel: Channel;
  deliveries: Delivery[];
  total: number;
  customers: Customer[] | null;
}

async function load(id: string): Promise<Loaded> {
  const channel = await ok(api.GET('/api/notification-channels/{id}', { params: { path: { id } } }));
  const [deliveries, customers] = await Promise.all([
    ok(api.GET('/api/notification-deliveries', { params: { query: { channelId: channel.publicId, perPage: 20 } } })),
    loadCustomers().catch(() => null),
  ]);
  return { channel, deliveries: deliveries.items, total: deliveries.total, customers };
}

/** Where a channel sends, as text: its type's first field (a URL, addresses or numbers). */
function targetOf(channel: Channel): string {
  const first = entryOf(channel.type).fields[0];
  return first ? (textsOf(channel.type, channel.config)[first.name] ?? '') : '';
}

/**
 * One channel: its health, where it sends, the test button with the receiver's answer, its recent
 * deliveries (live: read again when an attempt of this channel is recorded), and for writers the
 * form to change it and the delete button.
 */
export function ChannelPage({ id, user }: { id: string; user: User }) {
  const { value: loaded, error, reload } = useResource(load, id);
  const [secret, setSecret] = useState<string | null>(null);
  useLiveReload(
    () => void reload(),
    (event) => event.kind === 'notification.deliveryAttempted' && event.data.channelId === loaded?.channel.publicId,
  );
  if (!loaded) return <Loading error={error} what="the channel" />;
  const { channel } = loaded;
  return (
    <article aria-labelledby="channel-title" class="channel-page">
      <p>
        <Link to="/channels">All channels</Link>
      </p>
      <h1 id="channel-title">{channel.name}</h1>
      <p class="muted">
        {typeLabel(channel.type)} to <span class="target">{targetOf(channel)}</span> · {scopeOf(channel, loaded.customers)}
        {channel.enabled ? '' : ' · disabled'}
      </p>
      <ErrorText message={error} />
      <p>
        <Health channel={channel} full />
      </p>
      {channel.problems.map((p) => (
        <p key={p.code} class="error-text">
          {p.message}
        </p>
      ))}
      {secret ? <SigningSecret secret={secret} /> : null}
      {may(user, 'channel.test') ? <TestButton channelId={channel.publicId} onTried={() => void reload()} /> : null}
      <Deliveries deliveries={loaded.deliveries} total={loaded.total} />
      {may(user, 'channel.update') ? (
        <>
          <ChannelForm
            key={channel.updatedAt}
            channel={channel}
            customers={null}
            onSaved={(saved) => {
              setSecret(saved.signingSecret ?? null);
              void reload();
            }}
          />
          <p class="danger-zone">
            <RemoveButton
              what={channel.name}
              label="Delete"
              remove={() => ok(api.DELETE('/api/notification-channels/{id}', { params: { path: { id: channel.publicId } } }))}
              onRemoved={() => navigate('/channels')}
            />
          </p>
        </>
      ) : null}
    </article>
  );
}
