import { useState } from 'preact/hooks';
import { describe } from '../../api/client';
import { ErrorText } from '../../components/field';

/**
 * "Remove" asks once more, naming what goes; the API's refusal is shown beside the button.
 * Shared by the lists of the customers, channels and maintenance screens.
 */
export function RemoveButton({
  what,
  label = 'Remove',
  remove,
  onRemoved,
}: {
  what: string;
  label?: string;
  remove: () => Promise<unknown>;
  onRemoved: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await remove();
      setAsking(false);
      onRemoved();
    } catch (failure) {
      setError(describe(failure));
    } finally {
      setBusy(false);
    }
  };
  if (!asking) {
    return (
      <span class="remove">
        <button type="button" class="secondary" aria-label={`${label} ${what}`} onClick={() => setAsking(true)}>
          {label}
        </button>
      </span>
    );
  }
  return (
    <span class="remove confirm" role="group" aria-label={`Confirm: ${label.toLowerCase()} ${what}`}>
      <span>
        {label} “{what}”?
      </span>
      <button type="button" class="danger" disabled={busy} onClick={() => void confirm()}>
        Yes, {label.toLowerCase()}
      </button>
      <button type="button" class="secondary" onClick={() => setAsking(false)}>
        Keep it
      </button>
      <ErrorText message={error} />
    </span>
  );
}
