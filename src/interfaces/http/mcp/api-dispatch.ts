import http from 'node:http';
import { Duplex } from 'node:stream';
import type { Express, Request } from 'express';
import type { ApiCall } from './tool-operations';

/** What the API answered a tool's request: its status and JSON body (the error envelope for any non-2xx). */
export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** Headers of the MCP request that the API's request carries on: who calls, for which host, through which proxy. */
const CARRIED = ['host', 'authorization', 'user-agent', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host'];

/**
 * One end of an in-memory connection: what one end writes, the other reads. The server's end
 * reports the MCP request's peer as its remote address, so the API judges the client address (and
 * the forwarded headers) exactly as it judged the MCP request.
 */
class PipeEnd extends Duplex {
  peer: PipeEnd | undefined;

  constructor(readonly remoteAddress: string | undefined) {
    super();
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.peer?.push(chunk);
    done();
  }

  override _final(done: (error?: Error | null) => void): void {
    this.peer?.push(null);
    done();
  }

  // The parts of net.Socket's surface node's HTTP server and client call.
  setTimeout(): this {
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  destroySoon(): void {
    this.end();
  }
}

/** The node HTTP server of an app, never listening: it parses the in-memory connections dispatchToApi opens. */
const parsers = new WeakMap<Express, http.Server>();

/**
 * Runs a tool's call as a request of the same Express app that received the MCP request, in this
 * process, through node's own HTTP parser on an in-memory connection: the path check, admission and
 * every access gate, the audit context, area gates, the route's schemas, use case and presenter, the
 * rate limits and the error envelope are the API's own, so a tool cannot answer anything the API
 * would not. The request carries the MCP request's credential, host, peer address, forwarded
 * headers and request id (the API request's log lines and audit entries share it).
 */
export async function dispatchToApi(mcpRequest: Request, call: ApiCall): Promise<ApiAnswer> {
  const app = mcpRequest.app as Express;
  let parser = parsers.get(app);
  if (!parser) {
    parser = http.createServer(app);
    parsers.set(app, parser);
  }
  const clientEnd = new PipeEnd(undefined);
  const serverEnd = new PipeEnd(mcpRequest.socket.remoteAddress);
  clientEnd.peer = serverEnd;
  serverEnd.peer = clientEnd;
  parser.emit('connection', serverEnd);

  const headers: Record<string, string> = { connection: 'close' };
  for (const name of CARRIED) {
    const value = mcpRequest.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  if (typeof mcpRequest.id === 'string') headers['x-request-id'] = mcpRequest.id;
  const payload = call.body === undefined ? undefined : JSON.stringify(call.body);
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(Buffer.byteLength(payload));
  }
  const text = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const request = http.request({ method: call.method, path: call.url, headers, createConnection: () => clientEnd }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 500, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(payload);
  }).finally(() => {
    // The answer is read whole: nothing more travels on this connection.
    clientEnd.destroy();
    serverEnd.destroy();
  });
  let body: unknown = undefined;
  if (text.text.length > 0) {
    try {
      body = JSON.parse(text.text) as unknown;
    } catch {
      body = text.text;
    }
  }
  return { status: text.status, body };
}
