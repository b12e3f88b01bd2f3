import http from 'node:http';
import { randomInt } from 'node:crypto';
import { testServer } from './test-server';
import type { ApiResponse } from './http-client';

/** The host of PUBLIC_BASE_URL in the test configuration: agent endpoints answer only there. */
export const CANONICAL_HOST = 'api.test.example';

export interface AgentRequestOptions {
  /** Sent form-encoded (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as-is with `contentType`. */
  raw?: string;
  contentType?: string;
  token?: string;
  cookie?: string;
  /** Host header; the canonical host unless stated. */
  host?: string;
  /**
   * Client address seen by the service: the loopback address (127/8) the request is sent from, so
   * per-caller limits see distinct callers without any proxy header; a fresh one per call unless stated.
   */
  clientIp?: string;
  headers?: Record<string, string>;
}

/** A loopback source address other than 127.0.0.1 (every 127/8 address is local on Linux). */
export const aClientIp = () => `127.${randomInt(1, 256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/**
 * Raw request to the test server with any Host header (fetch cannot set Host), sent from `localAddress`
 * when given. Never throws on 4xx/5xx.
 */
export async function sendRaw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
  localAddress?: string,
) {
  const { url } = await testServer();
  const target = new URL(url);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    const request = http.request({ host: target.hostname, port: target.port, method, path, headers, localAddress }, (response) => {
      // An admitted event stream (GET /api/events) does not end: its opening is the answer, and it is closed.
      if (response.statusCode === 200 && (response.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        response.destroy();
        resolve({ status: 200, headers: response.headers, text: '' });
        return;
      }
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    request.on('error', reject);
    if (body !== undefined) request.write(body);
    request.end();
  });
}

/** A client for the agent endpoints: canonical Host header, form or JSON bodies, one client address per call. */
export async function agentApi<T = any>(method: string, path: string, options: AgentRequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = {
    host: options.host ?? CANONICAL_HOST,
    ...options.headers,
  };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  let body: string | undefined;
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  } else if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  } else if (options.raw !== undefined) {
    body = options.raw;
    if (options.contentType) headers['content-type'] = options.contentType;
  }
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const response = await sendRaw(method, path, headers, body, options.clientIp ?? aClientIp());
  let parsed: unknown = response.text;
  try {
    parsed = response.text ? JSON.parse(response.text) : undefined;
  } catch {
    /* not JSON: keep the text */
  }
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return { status: response.status, body: parsed as T, headers: responseHeaders, text: response.text };
}

/**
 * A fetch for OAuth client libraries (oauth4webapi's customFetch): requests to the canonical base
 * URL go to the test server with the canonical Host header, and come back as standard Responses.
 */
export async function canonicalFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input.toString());
  const headers: Record<string, string> = { host: url.host };
  new Headers(init.headers).forEach((value, name) => {
    headers[name] = value;
  });
  const body = init.body === undefined || init.body === null ? undefined : String(init.body);
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const response = await sendRaw(init.method ?? 'GET', `${url.pathname}${url.search}`, headers, body, aClientIp());
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Response(response.text || null, { status: response.status, headers: responseHeaders });
}
