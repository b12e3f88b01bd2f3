import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, ok, type Schemas } from './api/client';

/** The signed-in user, with what incident management is to them and what they may do (the session's `incidentManagement` and `can`). */
export type User = Schemas['Session']['user'] & {
  readonly incidentManagement: Schemas['Session']['incidentManagement'];
  readonly can: Schemas['Session']['can'];
};

export type SessionState =
  { kind: 'loading' } | { kind: 'signedOut' } | { kind: 'signedIn'; user: User } | { kind: 'failed'; message: string };

/**
 * The session cookie is HttpOnly (the page never sees it); beside it the service sets and clears
 * `wsm_signed_in=1`, which holds no secret. Without it there is no session to ask for, so the
 * console does not ask (a refused GET /api/auth/get-session is an error in the browser's console).
 */
const MARKER = 'wsm_signed_in';
export const sessionMarked = (): boolean => document.cookie.split(';').some((part) => part.trim() === `${MARKER}=1`);
/**
 * A session that ended (expired, revoked) while its cookie stayed: the marker becomes `0` when the
 * service says so, which the host leaves alone (it sets `1` only where there is no marker at all), so
 * the dead cookie is not asked about again; the next sign-in sets `1`.
 */
const markEnded = (): void => void (document.cookie = `${MARKER}=0; Path=/; Max-Age=${7 * 86_400}; SameSite=Lax`);

/** Reads the session: GET /api/auth/get-session when the marker says there is one. */
async function readSession(): Promise<SessionState> {
  if (!sessionMarked()) return { kind: 'signedOut' };
  try {
    const { user, incidentManagement, can } = await ok(api.GET('/api/auth/get-session'));
    return { kind: 'signedIn', user: { ...user, incidentManagement, can } };
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      markEnded();
      return { kind: 'signedOut' };
    }
    return { kind: 'failed', message: error instanceof Error ? error.message : 'The service does not answer' };
  }
}

/** The read started as the page loads, taken by the first `useSession` (later ones read again). */
let opening: Promise<SessionState> | null = null;

/**
 * Starts reading the session as the page loads (main.tsx), before the first render asks for it: the
 * screen's own reads can then start as soon as it answers (`whenSignedIn`), not after a render.
 */
export function startSessionRead(): Promise<SessionState> {
  opening ??= readSession();
  return opening;
}

/** The signed-in user, read from GET /api/auth/get-session when the marker says there is a session. */
export function useSession(): { session: SessionState; refresh: () => Promise<void> } {
  const [session, setSession] = useState<SessionState>({ kind: 'loading' });
  const refresh = useCallback(async () => {
    const read = opening ?? readSession();
    opening = null;
    setSession(await read);
  }, []);
  useEffect(() => void refresh(), [refresh]);
  return { session, refresh };
}
