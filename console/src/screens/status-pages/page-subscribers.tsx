import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, describe, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { dateTime } from '../../components/format';
import { useSubmission } from '../../components/use-submission';
import { CopyButton } from './copy-button';

type Subscriber = Schemas['StatusPageSubscriber'];

/** A subscriber's line, with its remove button (and the refusal, if the API gives one, beside it). */
function SubscriberItem({
  pageId,
  subscriber,
  writer,
  onRemoved,
}: {
  pageId: string;
  subscriber: Subscriber;
  writer: boolean;
  onRemoved: () => Promise<void>;
}) {
  const remove = useSubmission(async () => {
    await ok(
      api.DELETE('/api/status-pages/{id}/subscribers/{subscriberId}', {
        params: { path: { id: pageId, subscriberId: String(subscriber.id) } },
      }),
    );
    await onRemoved();
  });
  return (
    <li>
      <span>
        {subscriber.address} <span class="muted">({subscriber.channel})</span>{' '}
        <span class="muted">
          {subscriber.confirmed ? `confirmed ${dateTime(subscriber.confirmedAt)}` : 'waiting for the confirmation link to be followed'}
          {subscriber.componentIds.length > 0 ? ` · follows ${subscriber.componentIds.length} component(s)` : ' · follows the whole page'}
        </span>
      </span>
      {writer ? (
        <button type="button" class="secondary" disabled={remove.busy} onClick={remove.submit} aria-label={`Remove ${subscriber.address}`}>
          Remove
        </button>
      ) : null}
      <ErrorText message={remove.message} />
    </li>
  );
}

/** Who hears of the page's incidents and maintenance (GET/POST/DELETE /api/status-pages/{id}/subscribers). */
export function PageSubscribers({ pageId, writer }: { pageId: string; writer: boolean }) {
  const [subscribers, setSubscribers] = useState<Subscriber[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [form, setForm] = useState<{ channel: 'email' | 'webhook'; address: string }>({ channel: 'email', address: '' });
  const [secret, setSecret] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setSubscribers(
        (await ok(api.GET('/api/status-pages/{id}/subscribers', { params: { path: { id: pageId }, query: { perPage: 100 } } }))).items,
      );
    } catch (failure) {
      setError(describe(failure));
    }
  }, [pageId]);
  useEffect(() => void load(), [load]);
  const add = useSubmission(async () => {
    setSecret(null);
    const body =
      form.channel === 'email'
        ? { channel: 'email' as const, email: form.address, componentIds: [] }
        : { channel: 'webhook' as const, url: form.address, componentIds: [] };
    const added = await ok(api.POST('/api/status-pages/{id}/subscribers', { params: { path: { id: pageId } }, body }));
    setSecret(added.webhookSecret);
    setForm({ ...form, address: '' });
    await load();
  });
  const addressField = form.channel === 'email' ? 'email' : 'url';
  return (
    <section class="panel sp-wide" aria-labelledby="subscribers-title">
      <h2 id="subscribers-title">Subscribers</h2>
      <ErrorText message={error} />
      {subscribers?.length === 0 ? <p>No subscribers yet.</p> : null}
      <ul class="plain-list" aria-label="Subscribers">
        {subscribers?.map((s) => (
          <SubscriberItem key={s.id} pageId={pageId} subscriber={s} writer={writer} onRemoved={load} />
        ))}
      </ul>
      {secret ? (
        <div role="status">
          <p>
            The webhook's signing secret, shown this once (its deliveries carry X-Webhook-Signature made with it):{' '}
            <span class="sp-secret">{secret}</span>
          </p>
          <CopyButton value={secret} label="Copy the signing secret" />
        </div>
      ) : null}
      {writer ? (
        <form onSubmit={add.submit} noValidate aria-labelledby="add-subscriber-title">
          <h3 id="add-subscriber-title">Add a subscriber</h3>
          <div class="sp-inline">
            <Field label="Channel" id="sub-channel">
              <select
                id="sub-channel"
                value={form.channel}
                onChange={(e) => setForm({ ...form, channel: e.currentTarget.value as 'email' | 'webhook' })}
              >
                <option value="email">E-mail (sent a confirmation link)</option>
                <option value="webhook">Webhook</option>
              </select>
            </Field>
            <Field
              label={form.channel === 'email' ? 'E-mail address' : 'Webhook URL'}
              id="sub-address"
              error={add.fieldError(addressField)}
            >
              <input
                id="sub-address"
                type="text"
                inputMode={form.channel === 'email' ? 'email' : 'url'}
                value={form.address}
                onInput={(e) => setForm({ ...form, address: e.currentTarget.value })}
              />
            </Field>
          </div>
          <ErrorText message={add.message} />
          <button type="submit" disabled={add.busy}>
            Add subscriber
          </button>
        </form>
      ) : null}
    </section>
  );
}
