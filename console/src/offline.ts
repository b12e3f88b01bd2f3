import './offline.css';

/** How long ago, in words: "3 min ago". */
export function ageOf(readAt: Date, now: Date): string {
  const minutes = Math.max(0, Math.round((now.getTime() - readAt.getTime()) / 60_000));
  if (minutes < 1) return 'less than a minute ago';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

let note: HTMLElement | null = null;

/** Says, above everything, that what is shown is the last state read and how old it is; gone once the network is back. */
function showOffline(readAt: string | null): void {
  note ??= Object.assign(document.createElement('div'), { className: 'offline-note' });
  note.setAttribute('role', 'status');
  const when = readAt ? new Date(readAt) : null;
  note.textContent = when
    ? `Offline: showing the last state read, ${ageOf(when, new Date())} (${when.toLocaleTimeString()}).`
    : 'Offline: showing the last state read.';
  if (!note.isConnected) document.body.prepend(note);
}

/** Registers the service worker (/app/sw.js, scope /app/) and listens for what it says of the network. */
export function startOffline(): void {
  if (!('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.register('/app/sw.js', { scope: '/app/' }).catch(() => undefined);
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string; readAt?: string | null }>) => {
    if (event.data?.type === 'offline') showOffline(event.data.readAt ?? null);
  });
  window.addEventListener('online', () => note?.remove());
}
