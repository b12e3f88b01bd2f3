import { useState } from 'preact/hooks';
import { api, ok } from '../../api/client';
import { updateMonitor, type AnyMonitor } from '../../monitors/monitor-api';
import { useAction } from '../../components/use-action';
import { navigate } from '../../router';
import type { MonitorKind } from '../../monitors/monitor-rows';

/** A website's path, or the per-kind path the API keeps the other kinds under (one shape for all of them). */
const pathOf = (kind: MonitorKind) =>
  kind === 'website' ? '/api/websites/{id}' : (`/api/monitors/${kind}/{id}` as '/api/monitors/dns/{id}');

async function remove(kind: MonitorKind, id: string): Promise<void> {
  if (kind === 'website') await ok(api.DELETE('/api/websites/{id}', { params: { path: { id } } }));
  else await ok(api.DELETE(pathOf(kind) as '/api/monitors/dns/{id}', { params: { path: { id } } }));
}

/**
 * Pause or resume a monitor, and delete it after a confirmation that names it; the API's refusal
 * (a managed monitor, a role) is shown beside the buttons.
 */
export function MonitorActions(props: {
  kind: MonitorKind;
  id: string;
  name: string;
  paused: boolean;
  /** What the session's `can` lets the user do: pause and resume (monitor.update), delete (monitor.delete). */
  pauses: boolean;
  deletes: boolean;
  /** After pausing or resuming: the monitor as the API answered it (the page shows it, reading nothing again). */
  onChanged: (changed: AnyMonitor) => void;
}) {
  const { kind, id, name, paused, onChanged } = props;
  const [confirming, setConfirming] = useState(false);
  const { busy, error, act } = useAction();
  if (!props.pauses && !props.deletes) return null;
  return (
    <div class="monitor-actions">
      {props.pauses ? (
        <button
          type="button"
          class="secondary"
          disabled={busy}
          onClick={() => act(async () => onChanged(await updateMonitor(kind, id, { status: paused ? 'active' : 'paused' })))}
        >
          {paused ? 'Resume' : 'Pause'}
        </button>
      ) : null}
      {!props.deletes ? null : confirming ? (
        <span class="confirm" role="group" aria-label="Confirm deletion">
          <span>Delete “{name}” and its history?</span>
          <button type="button" class="danger" disabled={busy} onClick={() => act(async () => (await remove(kind, id), navigate('/')))}>
            Delete for good
          </button>
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </span>
      ) : (
        <button type="button" class="secondary" onClick={() => setConfirming(true)}>
          Delete…
        </button>
      )}
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
