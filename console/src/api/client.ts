import createClient from 'openapi-fetch';
import type { components, paths } from './schema';
import { pointerPath } from '../../../src/domain/shared/field-pointer';

/**
 * The console's only way to the service: the public REST API, typed from the service's own
 * /openapi.json. Signed in by the HttpOnly `wsm_session` cookie (same origin), never a token kept
 * in the page's storage; the browser's Origin header satisfies the API's CSRF rule for writes.
 */
export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });

export type Schemas = components['schemas'];
export type Website = Schemas['Website'];
export type Customer = Schemas['Customer'];
export type Incident = Schemas['Incident'];
export type CheckResult = Schemas['StoredCheckResult'];
export type UptimeStats = Schemas['UptimeStats'];

interface Envelope {
  statusCode?: number;
  message?: string;
  data?: {
    code?: string;
    issues?: Array<{ path: string[]; message: string }>;
    field?: unknown;
    retryAfter?: number;
    [key: string]: unknown;
  };
}

/** A refusal of the API, in its own words: the envelope's message and code, and the fields it names. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly issues: ReadonlyArray<{ path: string[]; message: string }> = [],
    /** The envelope's data as sent (details such as a dependency loop's `cycle`). */
    readonly data: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }

  /**
   * The message for one field of a form, if the API named it or a part of it: `name` is the issue's
   * first path element, `config.url` its first two (so `config.recipients.0` is the recipients').
   */
  forField(field: string): string | undefined {
    const path = field.split('.');
    return this.issues.find((issue) => path.every((part, i) => String(issue.path[i]) === part))?.message;
  }
}

/** The data of a call, or its refusal thrown as an ApiError. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const envelope = (error ?? {}) as Envelope;
  const message = envelope.message ?? response.statusText;
  throw new ApiError(response.status, envelope.data?.code, message, issuesOf(envelope, message), envelope.data ?? {});
}

/**
 * Where a refusal belongs: the schema's issues, each at its path; else the field the API names in
 * data.field (a JSON pointer into the body: `/config/url` is the form's `config.url`), so every rule
 * about one field (an interval, a target, an issuer) shows at that field, with no table of codes.
 */
function issuesOf(envelope: Envelope, message: string): ReadonlyArray<{ path: string[]; message: string }> {
  if (envelope.data?.issues && envelope.data.issues.length > 0) return envelope.data.issues;
  const field = envelope.data?.field;
  return typeof field === 'string' ? [{ path: pointerPath(field), message }] : [];
}

/** What to say about any failure. */
export const describe = (error: unknown): string =>
  error instanceof ApiError ? error.message : error instanceof Error ? error.message : 'Something went wrong';
