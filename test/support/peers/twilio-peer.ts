import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  authorization: string | undefined;
  form: Record<string, string>;
}
/** A scripted answer: JSON, or a raw text (a proxy's HTML error page). */
export type Answer = { status: number; body: Record<string, unknown> | string; headers?: Record<string, string> };

/**
 * A loopback server shaped like Twilio's Messages API: records each POST's path, basic auth and form
 * body, answers a message's JSON (201, `sid`) unless a script for the `To` number says otherwise
 * (Twilio's error JSON, a 429, a 500).
 */
export class TwilioPeer {
  readonly requests: Received[] = [];
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
      const sid = `SM${String(++this.count).padStart(32, '0')}`;
      const answer: Answer = this.scripts.get(form.To ?? '')?.shift() ?? {
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
