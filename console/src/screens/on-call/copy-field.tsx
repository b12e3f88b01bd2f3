import { useState } from 'preact/hooks';

/** A read-only value with a button copying it (the clipboard API; else the text is selected to copy by hand). */
export function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const [said, setSaid] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setSaid('Copied.');
    } catch {
      const input = document.getElementById(id) as HTMLInputElement | null;
      input?.select();
      setSaid('Selected: copy it with your keyboard.');
    }
  };
  return (
    <div class="field copy-field">
      <label for={id}>{label}</label>
      <div class="copy-row">
        <input id={id} readOnly value={value} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      {said ? (
        <p role="status" class="muted">
          {said}
        </p>
      ) : null}
    </div>
  );
}
