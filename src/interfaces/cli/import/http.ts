/** A source that cannot be read (refused, unreachable, not the documented shape): the message says which call and why. */
export class ImportError extends Error {}

/**
 * One call to the source, at the address the user gave (wsm is the user's own tool, run where they
 * run it: no target policy here), answering its JSON; an ImportError for a refusal or a body that
 * is not JSON.
 */
export async function requestJson(url: string, init: RequestInit): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new ImportError(`${init.method ?? 'GET'} ${url}: ${(error as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok) throw new ImportError(`${init.method ?? 'GET'} ${url}: HTTP ${response.status} ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new ImportError(`${init.method ?? 'GET'} ${url}: the answer is not JSON`);
  }
}

/** The base URL without trailing slashes. */
export const baseOf = (url: string) => url.replace(/\/+$/, '');
