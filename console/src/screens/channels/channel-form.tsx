import { useState } from 'preact/hooks';
import { api, ok, type Customer, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { useSubmission } from '../../components/use-submission';

export type Channel = Schemas['NotificationChannel'];
export type ChannelWithSecret = Schemas['NotificationChannelWithSecret'];
type ChannelType = Channel['type'];
type ChannelEvent = Channel['events'][number];

export const TYPE_LABELS: Record<ChannelType, string> = {
  webhook: 'Webhook',
  email: 'Email',
  sms: 'SMS',
  slack: 'Slack',
  teams: 'Microsoft Teams',
  discord: 'Discord',
};

/** Every event a channel may list (the API's enum: a missing or unknown one fails the typecheck). */
const EVENTS = {
  'incident.opened': 'Incident opened',
  'incident.acknowledged': 'Incident acknowledged',
  'incident.resolved': 'Incident resolved',
  'incident.reminder': 'Incident reminder',
  'certificate.expiring': 'Certificate expiring',
  'certificate.expired': 'Certificate expired',
  'domain.expiring': 'Domain expiring',
  'domain.expired': 'Domain expired',
  'ip.listed': 'IP listed on a blocklist',
  'ip.clean': 'IP clean again',
  'maintenance.started': 'Maintenance started',
  'maintenance.ended': 'Maintenance ended',
  'alert.manual': 'Manual alert',
  'slo.burning': 'SLO burning',
  'slo.recovered': 'SLO recovered',
} satisfies Record<ChannelEvent, string>;
const ALL_EVENTS = Object.keys(EVENTS) as ChannelEvent[];

/**
 * What the form asks of each type (one entry per type the API knows): a URL, a chat URL with a prefix, addresses or numbers.
 * It must match the notifier descriptors' fields (src/domain/notifications/notifiers/<type>.ts, the source of truth),
 * which the console cannot import yet; so must TYPE_LABELS match their labels.
 */
const CONFIG_SHAPE: Record<ChannelType, 'url' | 'chat' | 'recipients' | 'phoneNumbers'> = {
  webhook: 'url',
  email: 'recipients',
  sms: 'phoneNumbers',
  slack: 'chat',
  teams: 'chat',
  discord: 'chat',
};
const usesUrl = (type: ChannelType) => CONFIG_SHAPE[type] === 'url' || CONFIG_SHAPE[type] === 'chat';
const isChat = (type: ChannelType) => CONFIG_SHAPE[type] === 'chat';
const list = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);

interface Draft {
  name: string;
  type: ChannelType;
  target: string;
  messagePrefix: string;
  customerId: string;
  events: ChannelEvent[];
  enabled: boolean;
}

function draftOf(channel: Channel | null): Draft {
  if (!channel) return { name: '', type: 'webhook', target: '', messagePrefix: '', customerId: '', events: ALL_EVENTS, enabled: true };
  const { config } = channel;
  return {
    name: channel.name,
    type: channel.type,
    target: config.url ?? (config.recipients ?? config.phoneNumbers ?? []).join(', '),
    messagePrefix: config.messagePrefix ?? '',
    customerId: '',
    events: [...channel.events],
    enabled: channel.enabled,
  };
}

/** The config the API takes for a type; a webhook keeps the headers it had (the form does not edit them). */
function configOf(draft: Draft, before: Channel | null): Schemas['NotificationChannelConfigInput'] {
  if (CONFIG_SHAPE[draft.type] === 'recipients') return { recipients: list(draft.target) };
  if (CONFIG_SHAPE[draft.type] === 'phoneNumbers') return { phoneNumbers: list(draft.target) };
  const headers = draft.type === 'webhook' && before?.type === 'webhook' ? before.config.headers : undefined;
  return {
    url: draft.target.trim(),
    ...(headers && Object.keys(headers).length > 0 ? { headers } : {}),
    ...(isChat(draft.type) ? { messagePrefix: draft.messagePrefix.trim() || null } : {}),
  };
}

const TARGET_LABEL: Record<ChannelType, string> = {
  webhook: 'Webhook URL',
  email: 'Recipients (email addresses, comma separated)',
  sms: 'Phone numbers (E.164, comma separated)',
  slack: 'Slack incoming-webhook URL',
  teams: 'Teams incoming-webhook URL',
  discord: 'Discord webhook URL',
};

/**
 * Creates a channel (`channel` null) or changes one: name, type, where it sends, its events and
 * whether it is on; a new channel may belong to a customer. The API's refusals are shown at the
 * field they name. `onSaved` hears the API's answer (a webhook's signing secret comes only there).
 */
export function ChannelForm({
  channel,
  customers,
  onSaved,
}: {
  channel: Channel | null;
  customers: Customer[] | null;
  onSaved: (saved: ChannelWithSecret) => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(channel));
  const set = (change: Partial<Draft>) => setDraft({ ...draft, ...change });
  const prefix = channel ? 'edit-channel' : 'new-channel';
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    const common = { name: draft.name, type: draft.type, config: configOf(draft, channel), events: draft.events, enabled: draft.enabled };
    const saved = channel
      ? await ok(api.PATCH('/api/notification-channels/{id}', { params: { path: { id: channel.publicId } }, body: common }))
      : await ok(
          api.POST('/api/notification-channels', { body: { ...common, ...(draft.customerId ? { customerId: draft.customerId } : {}) } }),
        );
    if (!channel) setDraft(draftOf(null));
    onSaved(saved);
  });
  const toggle = (event: ChannelEvent, on: boolean) =>
    set({ events: on ? ALL_EVENTS.filter((e) => e === event || draft.events.includes(e)) : draft.events.filter((e) => e !== event) });
  return (
    <form class="panel channel-form" onSubmit={submit} noValidate aria-labelledby={`${prefix}-title`}>
      <h2 id={`${prefix}-title`}>{channel ? 'Change this channel' : 'Add a channel'}</h2>
      <Field label="Name" id={`${prefix}-name`} error={fieldError('name')}>
        <input id={`${prefix}-name`} required value={draft.name} onInput={(e) => set({ name: e.currentTarget.value })} />
      </Field>
      <Field label="Kind" id={`${prefix}-type`} error={fieldError('type')}>
        <select id={`${prefix}-type`} value={draft.type} onChange={(e) => set({ type: e.currentTarget.value as ChannelType })}>
          {(Object.keys(TYPE_LABELS) as ChannelType[]).map((t) => (
            <option key={t} value={t}>
              {TYPE_LABELS[t]}
            </option>
          ))}
        </select>
      </Field>
      <Field label={TARGET_LABEL[draft.type]} id={`${prefix}-target`} error={fieldError('config')}>
        <input
          id={`${prefix}-target`}
          type={(usesUrl(draft.type) ? 'url' : 'text') as 'text'}
          required
          value={draft.target}
          onInput={(e) => set({ target: e.currentTarget.value })}
        />
      </Field>
      {isChat(draft.type) ? (
        <Field label="Message prefix (optional)" id={`${prefix}-prefix`}>
          <input id={`${prefix}-prefix`} value={draft.messagePrefix} onInput={(e) => set({ messagePrefix: e.currentTarget.value })} />
        </Field>
      ) : null}
      {!channel && customers && customers.length > 0 ? (
        <Field label="For" id={`${prefix}-customer`} error={fieldError('customerId')}>
          <select id={`${prefix}-customer`} value={draft.customerId} onChange={(e) => set({ customerId: e.currentTarget.value })}>
            <option value="">The whole organization</option>
            {customers.map((c) => (
              <option key={c.publicId} value={c.publicId}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
      <fieldset class="events">
        <legend>Events it receives</legend>
        {ALL_EVENTS.map((event) => (
          <label key={event} class="check">
            <input
              type="checkbox"
              class="checkbox"
              checked={draft.events.includes(event)}
              onChange={(e) => toggle(event, e.currentTarget.checked)}
            />
            {EVENTS[event]}
          </label>
        ))}
        {fieldError('events') ? (
          <p class="field-error" role="alert">
            {fieldError('events')}
          </p>
        ) : null}
      </fieldset>
      <label class="check">
        <input type="checkbox" class="checkbox" checked={draft.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
        Enabled
      </label>
      <ErrorText message={message} />
      <button type="submit" disabled={busy}>
        {channel ? 'Save channel' : 'Add channel'}
      </button>
    </form>
  );
}
