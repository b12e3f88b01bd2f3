import http from 'node:http';
import { expect } from 'chai';
import { testServer } from './test-server';
import { serverErrorsOf } from './server-errors';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  /** The body as sent, for assertions on its bytes. */
  text: string;
}

export interface RequestOptions {
  token?: string;
  cookie?: string;
  body?: unknown;
  /** Sent as-is (no JSON encoding). */
  rawBody?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

/** A client that never throws on 4xx/5xx, so tests assert the status and the whole envelope. */
export async function api<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const { url } = await testServer();
  return apiAt<T>(url, method, path, options);
}

/** The same client for a service of the test's own, listening at `url`. */
export async function apiAt<T = any>(url: string, method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const query = options.query ? `?${new URLSearchParams(options.query)}` : '';
  const response = await fetch(`${url}${path}${query}`, { method, headers, body, redirect: 'manual' });
  // An event stream (GET /api/events) does not end: its opening is the answer, and the stream is closed.
  if (response.ok && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    await response.body?.cancel();
    return { status: response.status, body: undefined as T, headers: response.headers, text: '' };
  }
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* non-JSON body: keep the text */
  }
  // A 5xx is never an answer a test wants: say what the server logged for it, for CI's record.
  if (response.status >= 500) {
    const logged = serverErrorsOf(response.headers.get('x-request-id'));
    if (logged.length > 0) console.error(`${method} ${path} answered ${response.status}; the server logged:\n${logged.join('\n')}`);
  }
  return { status: response.status, body: parsed as T, headers: response.headers, text };
}

/** Asserts the spec's error envelope exactly, with the stable code (or none) in data.code. */
export function expectError(response: Pick<ApiResponse, 'status' | 'body'>, status: number, code?: string): void {
  expect(response.status, JSON.stringify(response.body)).to.equal(status);
  const body = response.body as Record<string, any>;
  expect(body).to.include({ error: true, statusCode: status });
  expect(body.url).to.be.a('string');
  expect(body.statusMessage).to.be.a('string').and.not.equal('');
  expect(body.message).to.equal(body.statusMessage);
  if (code === undefined) expect(body.data?.code).to.equal(undefined);
  else expect(body.data?.code).to.equal(code);
}

/** A request with any Host and headers (fetch cannot set Host). */
export function rawAt(url: string, method: string, path: string, headers: Record<string, string>, body?: string) {
  const target = new URL(url);
  return new Promise<{ status: number; text: string; body: any; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const request = http.request({ host: target.hostname, port: target.port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: response.statusCode!, text, body: parsed, headers: response.headers });
      });
    });
    request.on('error', reject);
    if (body !== undefined) request.write(body);
    request.end();
  });
}
