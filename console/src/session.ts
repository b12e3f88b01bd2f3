import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError, ok, type Schemas } from './api/client';

export type User = Schemas['Session']['user'];

export type SessionState =
  { kind: 'loading' } | { kind: 'signedOut' } | { kind: 'signedIn'; user: User } | { kind: 'failed'; message: string };

/** The signed-in user, read from GET /api/auth/get-session (the cookie is HttpOnly: the page never sees it). */
export function useSession(): { session: SessionState; refresh: () => Promise<void> } {
  const [session, setSession] = useState<SessionState>({ kind: 'loading' });
  const refresh = useCallback(async () => {
    try {
      const { user } = await ok(api.GET('/api/auth/get-session'));
      setSession({ kind: 'signedIn', user });
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) setSession({ kind: 'signedOut' });
      else setSession({ kind: 'failed', message: error instanceof Error ? error.message : 'The service does not answer' });
    }
  }, []);
  useEffect(() => void refresh(), [refresh]);
  return { session, refresh };
}
