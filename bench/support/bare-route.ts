import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';

/**
 * The bare Express route the service is compared with, served from the service's own process:
 * GET /bare answers from memory whatever it was last given (a JSON page, or exact bytes with their
 * headers: an HTML page), POST /bare parses a JSON body and answers 202 (the ingest bench's baseline).
 */
export async function startBareRoute() {
  let barePage: unknown = { items: [], total: 0, page: 1, perPage: 50 };
  let bareText: { body: Buffer; headers: Record<string, string> } | undefined;
  const bare = express();
  bare.disable('x-powered-by');
  bare.get('/bare', (_req, res) => {
    if (bareText) res.set(bareText.headers).send(bareText.body);
    else res.json(barePage);
  });
  bare.post('/bare', express.json({ limit: '256kb' }), (req, res) => {
    res.status(202).json({ status: 'success', message: 'Event processed', dedup_key: (req.body as { dedup_key?: string }).dedup_key });
  });
  const server = http.createServer(bare);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The IPC request {type: 'bare', body} or {type: 'bare', text, headers}. */
    answer(message: { body?: unknown; text?: string; headers?: Record<string, string> }) {
      barePage = message.body;
      bareText = message.text === undefined ? undefined : { body: Buffer.from(message.text), headers: message.headers ?? {} };
    },
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}
