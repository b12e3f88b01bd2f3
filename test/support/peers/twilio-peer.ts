import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  authorization: string | undefined;
  form: Record<string, string>;
}
/** A scripted answer: JSON, or a raw text (a proxy's HTML error page). */
export type Answer = { status: number; body: Record<string, unknown> | string; headers?: Record<string, string> };

const E164 = /^\+[1-9]\d{6,14}$/;
/** Twilio's limit on a call's inline TwiML. */
const TWIML_MAX = 4000;

/**
 * Where a request strays from Twilio's documented Messages or Calls resource: a form-encoded POST
 * with basic auth to /2010-04-01/Accounts/{sid}/Messages.json (To, From, Body) or .../Calls.json (To,
 * From, and exactly one of Url, Twiml, ApplicationSid; Twiml at most 4000 characters, a well-formed
 * <Response> whose text is XML-escaped).
 */
function wireProblems(req: http.IncomingMessage, accountSid: string, form: Record<string, string>): string[] {
  const problems: string[] = [];
  const resource = new RegExp(`^/2010-04-01/Accounts/${accountSid}/(Messages|Calls)\\.json$`).exec(req.url ?? '')?.[1];
  if (req.method !== 'POST') problems.push(`method ${req.method}`);
  if (!resource) problems.push(`path ${req.url}`);
  if (!/^application\/x-www-form-urlencoded\b/.test(String(req.headers['content-type'])))
    problems.push(`content-type ${req.headers['content-type']}`);
  if (!String(req.headers.authorization).startsWith(`Basic ${Buffer.from(`${accountSid}:`).toString('base64').slice(0, 40)}`))
    problems.push('no basic auth with the account SID');
  if (!E164.test(form.To ?? '')) problems.push(`To ${form.To}`);
  if (!form.From) problems.push('no From');
  if (resource === 'Messages' && !form.Body) problems.push('no Body');
  if (resource === 'Calls') {
    if (['Url', 'Twiml', 'ApplicationSid'].filter((name) => form[name] !== undefined).length !== 1)
      problems.push('a call needs exactly one of Url, Twiml, ApplicationSid');
    const twiml = form.Twiml ?? '';
    if (twiml.length > TWIML_MAX) problems.push(`Twiml of ${twiml.length} characters (${TWIML_MAX} at most)`);
    if (form.Twiml !== undefined && !/^<Response>(<Say>[^<]*<\/Say>|<Pause length="\d+"\/>)+<\/Response>$/.test(twiml))
      problems.push('Twiml is not a <Response> of <Say> and <Pause>');
    if (/&(?!amp;|lt;|gt;|quot;|apos;)/.test(twiml)) problems.push('Twiml has an unescaped &');
  }
  return problems;
}

/**
 * A loopback server shaped like Twilio's Messages and Calls APIs: records each POST's path, basic
 * auth and form body; answers a request off the documented format 400 (recorded in `rejected`);
 * else a message's or call's JSON (201, `sid` SM... or CA...) unless a script for the `To` number
 * says otherwise (Twilio's error JSON, a 401, a 429, a 500).
 */
export class TwilioPeer {
  readonly requests: Received[] = [];
  /** The requests answered 400 for straying from the documented format, with why. */
  readonly rejected: { path: string; problems: string[] }[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  private count = 0;
  constructor(
    private readonly host: string,
    private readonly accountSid: string,
  ) {}

  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      this.requests.push({ path: req.url ?? '/', authorization: req.headers.authorization, form });
      const problems = wireProblems(req, this.accountSid, form);
      if (problems.length > 0) this.rejected.push({ path: req.url ?? '/', problems });
      const call = /\/Calls\.json$/.test(req.url ?? '');
      const sid = `${call ? 'CA' : 'SM'}${String(++this.count).padStart(32, '0')}`;
      const answer: Answer = (problems.length > 0 ? twilioError(400, 21200, problems.join('; ')) : undefined) ??
        this.scripts.get(form.To ?? '')?.shift() ?? {
          status: 201,
          body: {
            sid,
            account_sid: this.accountSid,
            to: form.To,
            from: form.From,
            body: form.Body,
            status: 'queued',
            num_segments: '1',
            error_code: null,
          },
        };
      const raw = typeof answer.body === 'string';
      res.writeHead(answer.status, { 'content-type': raw ? 'text/html' : 'application/json', ...answer.headers });
      res.end(raw ? answer.body : JSON.stringify(answer.body));
    });
  });

  answer(to: string, ...script: Answer[]): void {
    this.scripts.set(to, script);
  }

  to(number: string): Received[] {
    return this.requests.filter((r) => r.form.To === number);
  }

  get baseUrl(): string {
    return `http://${this.host}:${(this.server.address() as AddressInfo).port}`;
  }

  start(): Promise<void> {
    return new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export const twilioError = (status: number, code: number, message: string): Answer => ({
  status,
  body: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status },
});
