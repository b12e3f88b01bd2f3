import { useEffect, useState } from 'preact/hooks';
import { api, describe, type Schemas } from '../../api/client';
import { Field } from '../../components/field';

type Device = Schemas['PushSubscriptionList']['items'][number];

/** Whether this browser can be pushed to at all (a service worker and the Push API). */
const canPush = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/**
 * The person's devices that ring: each browser subscribed with the deployment's VAPID key
 * (PushManager.subscribe, the console's service worker), listed by name and push service, removable.
 * A device becomes an on-call contact method (web-push) and a web-push channel's recipient by its id.
 */
export function PushDevices() {
  // PushManager.subscribe takes the VAPID key as its base64url text.
  const [devices, setDevices] = useState<readonly Device[] | null>(null);
  const [vapidKey, setVapidKey] = useState<string | null>(null);
  const [label, setLabel] = useState('Phone');
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);

  const load = async () => {
    const { data, error } = await api.GET('/api/me/push-subscriptions');
    if (error || !data) return setMessage({ text: describe(error), error: true });
    setVapidKey(data.vapidPublicKey);
    setDevices(data.items);
  };
  useEffect(() => void load(), []);

  const subscribe = async () => {
    if (!vapidKey) return;
    setBusy(true);
    setMessage(null);
    try {
      if ((await Notification.requestPermission()) !== 'granted') {
        setMessage({ text: 'Notifications are blocked for this site: allow them in the browser, then try again.', error: true });
        return;
      }
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: vapidKey });
      const body = {
        ...(subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } }),
        label: label.trim() || null,
      };
      const { error } = await api.POST('/api/me/push-subscriptions', { body });
      if (error) return setMessage({ text: describe(error), error: true });
      setMessage({ text: 'This device now rings: add it as a contact method under On-call to be paged on it.', error: false });
      await load();
    } catch (failure) {
      setMessage({ text: `This browser could not subscribe: ${(failure as Error).message}`, error: true });
    } finally {
      setBusy(false);
    }
  };

  const remove = async (device: Device) => {
    const { error } = await api.DELETE('/api/me/push-subscriptions/{id}', { params: { path: { id: device.id } } });
    if (error) return setMessage({ text: describe(error), error: true });
    setMessage({ text: `${device.label ?? 'The device'} no longer rings.`, error: false });
    await load();
  };

  return (
    <>
      <h2>Devices that ring</h2>
      <p class="muted">
        Incidents and on-call pages can ring this browser, even with the console closed; a notification acknowledges in one tap.
      </p>
      {devices === null ? null : devices.length === 0 ? (
        <p>No device rings yet.</p>
      ) : (
        <ul class="push-devices">
          {devices.map((device) => (
            <li key={device.id}>
              <span>
                <strong>{device.label ?? 'Unnamed device'}</strong>{' '}
                <span class="muted">
                  {new URL(device.endpointOrigin).host} · since {new Date(device.createdAt).toLocaleDateString()}
                </span>
              </span>
              <button type="button" class="secondary" onClick={() => void remove(device)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {canPush() ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void subscribe();
          }}
        >
          <Field label="This device's name" id="push-label">
            <input id="push-label" value={label} maxLength={100} onInput={(e) => setLabel((e.target as HTMLInputElement).value)} />
          </Field>
          <button type="submit" disabled={busy || !vapidKey}>
            Ring this device
          </button>
        </form>
      ) : (
        <p class="muted">This browser cannot receive push notifications.</p>
      )}
      {message ? (
        <p role={message.error ? 'alert' : 'status'} class={message.error ? 'error' : undefined}>
          {message.text}
        </p>
      ) : null}
    </>
  );
}
