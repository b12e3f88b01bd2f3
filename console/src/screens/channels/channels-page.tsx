import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Customer } from '../../api/client';
import { ErrorText } from '../../components/field';
import { Link } from '../../components/link';
import { loadCustomers } from '../../monitors/monitor-rows';
import type { User } from '../../session';
import { may } from '../../permissions';
import { ChannelForm, type Channel } from './channel-form';
import { typeLabel } from './channel-types';
import { Health } from './health';
import { SigningSecret } from './signing-secret';
import './channels.css';

/** Where a channel belongs, in words. */
export function scopeOf(channel: Channel, customers: Customer[] | null): string {
  if (channel.scope === 'organization') return channel.isDefault ? 'Organization (default channel)' : 'Organization';
  const customer = customers?.find((c) => c.id === channel.customerId)?.name ?? 'a customer';
  return channel.scope === 'customer' ? `Customer ${customer}` : `Override for one monitor of ${customer}`;
}

/** The notification channels of the caller's scope with their health; writers add channels here. */
export function ChannelsPage({ user }: { user: User }) {
  const [channels, setChannels] = useState<Channel[] | null>(null);
  const [customers, setCustomers] = useState<Customer[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; id: string; secret: string | null } | null>(null);
  const load = useCallback(async () => {
    try {
      const [page, known] = await Promise.all([
        ok(api.GET('/api/notification-channels', { params: { query: { perPage: 200 } } })),
        loadCustomers().catch(() => null),
      ]);
      setChannels(page.items);
      setCustomers(known);
      setError(null);
    } catch (failure) {
      setError(describe(failure));
    }
  }, []);
  useEffect(() => void load(), [load]);
  return (
    <section aria-labelledby="channels-title">
      <h1 id="channels-title">Notification channels</h1>
      <ErrorText message={error} />
      {created ? (
        <p role="status">
          Added <Link to={`/channels/${created.id}`}>{created.name}</Link>: open it to send a test message.
        </p>
      ) : null}
      {created?.secret ? <SigningSecret secret={created.secret} /> : null}
      {channels === null && !error ? <p role="status">Loading channels…</p> : null}
      {channels?.length === 0 ? <p>No channels yet: alerts reach no one.</p> : null}
      <ul class="plain-list" aria-label="Channels">
        {channels?.map((c) => (
          <li key={c.publicId} class="channel-line">
            <span class="channel-name">
              <Link to={`/channels/${c.publicId}`}>{c.name}</Link>{' '}
              <span class="muted">
                {typeLabel(c.type)} · {scopeOf(c, customers)}
                {c.enabled ? '' : ' · disabled'}
              </span>
            </span>
            <Health channel={c} />
            {c.problems.map((p) => (
              <span key={p.code} class="error-text">
                {p.message}
              </span>
            ))}
          </li>
        ))}
      </ul>
      {may(user, 'channel.create') ? (
        <ChannelForm
          channel={null}
          customers={user.customerId === null ? customers : null}
          onSaved={(saved) => {
            setCreated({ name: saved.name, id: saved.publicId, secret: saved.signingSecret ?? null });
            void load();
          }}
        />
      ) : null}
    </section>
  );
}
