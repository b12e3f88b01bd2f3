import { useState } from 'preact/hooks';

/** Copies a value to the clipboard and says so (or says to copy it by hand when the browser refuses). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [said, setSaid] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setSaid('Copied.');
    } catch {
      setSaid('The browser did not allow copying: select the value and copy it.');
    }
  };
  return (
    <span>
      <button type="button" class="secondary" aria-label={label} onClick={() => void copy()}>
        Copy
      </button>{' '}
      <span role="status">{said}</span>
    </span>
  );
}
