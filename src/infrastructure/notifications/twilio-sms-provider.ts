import { performance } from 'node:perf_hooks';
import { parseRetryAfter, verdictOf } from '../../domain/notifications/delivery-schedule';
import type { SmsProvider, SmsSendOutcome, VoiceProvider } from '../../application/notifications/ports';
import { CheckDeadline } from '../../application/checks/check-deadline';
import type { PinnedHttpPool } from '../protocols/http/pinned-http-pool';
import { ProbeError } from '../protocols/shared/probe-error';

const EXCERPT_BYTES = 512;

/** A Twilio account to send from (SMS_PROVIDER_URL, SMS_ACCOUNT_SID, SMS_AUTH_TOKEN, SMS_FROM). */
export interface TwilioAccount {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  from: string;
}

/**
 * Twilio's Messages API: POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json, form-encoded
 * To, From and Body, HTTP basic auth (the account SID and auth token); and its Calls API for the
 * voice transport: POST .../Calls.json, form-encoded To, From and Twiml (what the call says). A 201
 * answers the message's or call's JSON (`sid`); an error answers `{code, message, more_info,
 * status}`. The connection goes through the target policy, pinned to the vetted address, kept alive
 * in the notification pool (as the webhook sender's).
 */
export class TwilioSmsProvider implements SmsProvider, VoiceProvider {
  constructor(
    private readonly pool: PinnedHttpPool,
    private readonly account: TwilioAccount,
    private readonly userAgent: string,
    private readonly timeoutMs: number,
    private readonly now: () => Date,
  ) {}

  send(to: string, text: string): Promise<SmsSendOutcome> {
    return this.create('Messages.json', { To: to, From: this.account.from, Body: text });
  }

  /** A call to `to` that does what the TwiML says (at most 4000 characters: Twilio's limit). */
  call(to: string, twiml: string): Promise<SmsSendOutcome> {
    return this.create('Calls.json', { To: to, From: this.account.from, Twiml: twiml });
  }

  private async create(resource: string, form: Record<string, string>): Promise<SmsSendOutcome> {
    const { baseUrl, accountSid, authToken } = this.account;
    const url = new URL(
      `2010-04-01/Accounts/${encodeURIComponent(accountSid)}/${resource}`,
      baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`,
    );
    const body = new URLSearchParams(form).toString();
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
      authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
    };
    const { deadline, clear } = CheckDeadline.within(this.timeoutMs);
    const started = performance.now();
    try {
      const response = await this.pool.request({
        url,
        method: 'POST',
        headers,
        body,
        userAgent: this.userAgent,
        keepBodyBytes: 16 * 1024,
        countLimit: 64 * 1024,
        deadline,
      });
      const answer = parseJson(response.body);
      const verdict = verdictOf(response.status);
      const retryAfter = response.headers['retry-after'];
      return {
        verdict,
        statusCode: response.status,
        responseExcerpt: response.body ? response.body.subarray(0, EXCERPT_BYTES).toString('utf8') : null,
        retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, this.now()),
        error: verdict === 'delivered' ? null : twilioError(response.status, answer),
        latencyMs: performance.now() - started,
        messageId: verdict === 'delivered' && typeof answer?.sid === 'string' ? answer.sid : null,
      };
    } catch (error) {
      const refused = error instanceof ProbeError && error.code === 'targetRejected';
      return {
        verdict: refused ? 'rejected' : 'retry',
        statusCode: null,
        responseExcerpt: null,
        retryAfterMs: null,
        error: (error as Error).message,
        latencyMs: performance.now() - started,
        messageId: null,
      };
    } finally {
      clear();
    }
  }
}

function parseJson(body: Buffer | null): Record<string, unknown> | null {
  if (!body) return null;
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  } catch {
    return null; // a proxy's HTML error page: the status alone decides
  }
}

/** Twilio's error code and message (`Twilio 21211: The 'To' number … is not a valid phone number.`), else the status. */
function twilioError(status: number, answer: Record<string, unknown> | null): string {
  const code = answer?.code;
  const message = answer?.message;
  if (typeof code === 'number' || typeof message === 'string') return `Twilio ${String(code ?? status)}: ${String(message ?? '')}`.trim();
  return `Answered ${status}`;
}
