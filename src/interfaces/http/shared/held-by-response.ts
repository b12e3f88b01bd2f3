import type { ServerResponse } from 'node:http';

const held = new WeakMap<ServerResponse, Array<() => void>>();

/**
 * What a request holds until its response closes (its scope and audit attribution: stores held
 * only while work is in them, `ContextStore`): `release` is called when the response closes, or
 * earlier, when the response turns into a long-lived stream (`streaming`). Releases are idempotent.
 */
export function holdUntilClosed(res: ServerResponse, release: () => void): void {
  const list = held.get(res);
  if (list) list.push(release);
  else held.set(res, [release]);
  res.once('close', release);
}

/**
 * The response is a stream now (server-sent events, open for up to an hour): what its request held
 * until close is let go at once. Its later work (the keep-alives, the credential's checks, the
 * events it is sent) is the stream's, not a request in flight: it runs with no scope and no caller,
 * and an open stream does not keep node's async hooks on (docs/architecture.md, persistence).
 */
export function streaming(res: ServerResponse): void {
  const list = held.get(res);
  held.delete(res);
  for (const release of list ?? []) release();
}
