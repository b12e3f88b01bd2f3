import type { ComponentChildren } from 'preact';
import { BASE, navigate } from '../router';

/** A link inside the console: a real href (open in a new tab works), followed without a reload. */
export function Link({ to, children, class: className }: { to: string; children: ComponentChildren; class?: string }) {
  return (
    <a
      href={`${BASE}${to}`}
      class={className}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
