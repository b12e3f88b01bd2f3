import { useState } from 'preact/hooks';
import { api, ok, type Customer, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { useSubmission } from '../../components/use-submission';
import { CHANNEL_TYPES, configOf, entryOf, textsOf, type ChannelType, type FieldTexts } from './channel-types';
import { ConfigFieldControl } from './config-field';

export type Channel = Schemas['NotificationChannel'];
export type ChannelWithSecret = Schemas['NotificationChannelWithSecret'];
type ChannelEvent = Channel['events'][number];

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

interface Draft {
  name: string;
  type: ChannelType;
  /** Each config field's text, by name (the type's fields: its catalogue entry). */
  texts: FieldTexts;
  customerId: string;
  events: ChannelEvent[];
  enabled: boolean;
}

/** A new channel starts as the first type the catalogue lists (NOTIFIERS' first: a webhook). */
function draftOf(channel: Channel | null): Draft {
  if (!channel)
    return { name: '', type: CHANNEL_TYPES[0]?.type ?? 'webhook', texts: {}, customerId: '', events: ALL_EVENTS, enabled: true };
  return {
    name: channel.name,
    type: channel.type,
    texts: textsOf(channel.type, channel.config),
    customerId: '',
    events: [...channel.events],
    enabled: channel.enabled,
  };
}

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
    const common = {
      name: draft.name,
      type: draft.type,
      config: configOf(draft.type, draft.texts),
      events: draft.events,
      enabled: draft.enabled,
    };
    const saved = channel
      ? await ok(api.PATCH('/api/notification-channels/{id}', { params: { path: { id: channel.publicId } }, body: common }))
      : await ok(
          api.POST('/api/notification-channels', { body: { ...common, ...(draft.customerId ? { customerId: draft.customerId } : {}) } }),
        );
    if (!channel) setDraft(draftOf(null));
    onSaved(saved);
  });
  const { fields } = entryOf(draft.type);
  /** The API's message for a config field; a refusal of the config as a whole is shown at the first. */
  const configError = (name: string, first: boolean) =>
    fieldError(`config.${name}`) ?? (first && !fields.some((f) => fieldError(`config.${f.name}`)) ? fieldError('config') : undefined);
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
          {CHANNEL_TYPES.map((t) => (
            <option key={t.type} value={t.type}>
              {t.label}
            </option>
          ))}
        </select>
      </Field>
      {fields.map((field, i) => (
        <ConfigFieldControl
          key={`${draft.type}-${field.name}`}
          field={field}
          // The first field says where the type sends (every descriptor lists it first): the "target" the tests and docs name.
          id={i === 0 ? `${prefix}-target` : `${prefix}-${field.name}`}
          value={draft.texts[field.name] ?? ''}
          error={configError(field.name, i === 0)}
          onInput={(text) => set({ texts: { ...draft.texts, [field.name]: text } })}
        />
      ))}
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
