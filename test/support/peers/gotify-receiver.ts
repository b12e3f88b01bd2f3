import { expectContentType, expectKnownFields, jsonObjectOf, ScriptedReceiver, type Received } from './scripted-receiver';

/** The fields of a message Gotify's POST /message takes, as its API documents them. */
const FIELDS = new Set(['title', 'message', 'priority', 'extras']);

const tokenOf = (r: Pick<Received, 'headers'>) => String(r.headers['x-gotify-key'] ?? '');
const gotifyError = (status: number, error: string, description: string) => ({ error, errorCode: status, errorDescription: description });

/**
 * A loopback Gotify server: POST <base>/message, JSON `{title?, message, priority?, extras?}` (message
 * a non-empty string, priority an integer; else 400 with Gotify's error body), the application's token
 * in `X-Gotify-Key` (the token in the URL's query, which Gotify also takes, counts as a wire error here:
 * access logs keep it); a token the test did not register answers 401, as Gotify does. A message
 * taken answers 200 with the stored message. Requests are listed and scripted per token.
 */
export class GotifyReceiver extends ScriptedReceiver {
  constructor(
    host: string,
    private readonly base = '',
  ) {
    let id = 0;
    super(host, {
      check: (req, raw, url) => {
        const problems: string[] = [];
        if (req.method !== 'POST') problems.push(`method ${req.method}`);
        if (url.pathname !== `${base}/message`) problems.push(`path ${url.pathname}`);
        if (url.searchParams.has('token')) problems.push('token in the query');
        if (!tokenOf(req)) problems.push('no X-Gotify-Key');
        expectContentType(req, 'application/json', problems);
        const body = jsonObjectOf(raw, problems);
        if (!body) return { body, problems };
        expectKnownFields(body, FIELDS, problems);
        if (!(typeof body.message === 'string' && body.message !== '')) problems.push('message is not a non-empty string');
        if (body.title !== undefined && typeof body.title !== 'string') problems.push('title is not a string');
        if (body.priority !== undefined && !Number.isInteger(body.priority)) problems.push(`priority ${JSON.stringify(body.priority)}`);
        return { body, problems };
      },
      keyOf: tokenOf,
      credentialOf: tokenOf,
      closed: true,
      invalid: (problems) => ({ status: 400, body: gotifyError(400, 'Bad Request', problems.join('; ')) }),
      unauthorized: () => ({
        status: 401,
        body: gotifyError(401, 'Unauthorized', 'you need to provide a valid access token or user credentials to access this api'),
      }),
      error: (status) => gotifyError(status, status === 429 ? 'Too Many Requests' : 'Error', 'scripted'),
      ok: (request) => ({
        status: 200,
        body: { id: ++id, appid: 1, date: new Date().toISOString(), priority: 0, title: '', ...request.body },
      }),
    });
  }

  /** Registers an application's token. */
  accept(appToken: string): void {
    this.protect(appToken, appToken);
  }

  /** The server's URL (its base path included). */
  serverUrl(): string {
    return this.url(`${this.base}/`);
  }
}
