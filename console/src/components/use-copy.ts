import { useState } from 'preact/hooks';

/**
 * Copies a text to the clipboard from a button, and says how it went (for a `role="status"` beside
 * the button): the browser may refuse, and then the person copies the shown text by hand.
 */
export function useCopy(text: string): { copy: () => void; said: string | null } {
  const [said, setSaid] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setSaid('Copied.');
    } catch {
      setSaid('The browser refused to copy: select the text and copy it yourself.');
    }
  };
  return { copy: () => void copy(), said };
}
