/**
 * Paths whose handlers read the body themselves (streamed, with their own limits, after their rate
 * limits are decided), so the host's body parsers must leave it unread.
 */
export function streamsItsBody(path: string): boolean {
  return path === '/api/im/events' || path.startsWith('/api/im/ingest/');
}

const INGEST_TOKEN = /^(\/api\/im\/ingest\/)[^/?#]+/;

/** Alert-source tokens are secrets in the path: logs get the URL without them. */
export const withoutIngestToken = (url: string): string => url.replace(INGEST_TOKEN, '$1[redacted]');
