import type { Express } from 'express';
import express from 'express';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createDocument, type ZodOpenApiPathsObject } from 'zod-openapi';
import { API_TAGS } from './api-tags';

export const API_VERSION = '1.0.0';

const DESCRIPTION = `Multi-tenant monitoring service. An organization holds customers; customers own monitors,
domains and IPs.

Authentication: \`Authorization: Bearer <token>\` with an API token (\`wsm_\`), an agent token (\`wsma_\`) or a
session token from sign-in; browsers may use the \`wsm_session\` cookie instead. Every non-2xx response uses the
error envelope \`{error, url, statusCode, statusMessage, message, data: {code, ...}}\`; \`data.code\` is stable. \`message\` says what was wrong; \`data.hint\`, where present, says how to fix it.

Conventions: paths carry no version; \`{id}\` takes a record's publicId, legacy integer ids are accepted where
noted. Query parameters that are sent must not be empty. Lists answer the paged shape \`{items, total, page, perPage}\`
(query \`page\`, default 1, and \`perPage\`, default 50, at most 200), except \`GET /api/customers\` (an array, as
the spec fixes it). Creates answer 201 with the created record at the top level, except where the spec fixes
another answer (\`POST /api/customers\`: 200 \`{success, customer}\`; customer domains and custom fields: 200).
A 429 carries \`data.retryAfter\` and a \`Retry-After\` header. Out-of-scope records answer 404.`;

export function buildOpenApiDocument(paths: ZodOpenApiPathsObject): object {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Monitoring Service API',
      version: API_VERSION,
      description: DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: "Try it out" in /docs calls whichever host served /openapi.json, whatever address it was reached by.
    servers: [{ url: '/' }],
    tags: API_TAGS.map((tag) => ({ ...tag })),
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'wsm_ API token, wsma_ agent token or session token' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'wsm_session' },
        probeKey: { type: 'http', scheme: 'bearer', description: 'pk_ probe key of a location (the probe API only)' },
      },
    },
    paths,
  });
}

const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Monitoring Service API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;

const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', deepLinking: true });`;

/**
 * GET /openapi.json and a rendered reference at /docs, served from local assets (no CDN). The
 * document is kept gzipped (about 100 KB): as a string it held 2.5 MB of the process's heap for
 * the life of the process (1.3 M characters, stored two bytes each for a few typographic ones),
 * for a page asked for now and then. A client that takes gzip (every browser, curl --compressed,
 * fetch) gets those bytes as they are; any other is answered the document unzipped for it.
 */
export function mountOpenApi(app: Express, document: object): void {
  const zipped = gzipSync(JSON.stringify(document));
  app.get('/openapi.json', (req, res) => {
    res.type('application/json').vary('Accept-Encoding');
    if (req.acceptsEncodings('gzip', 'identity') === 'gzip') res.set('Content-Encoding', 'gzip').send(zipped);
    else res.send(gunzipSync(zipped));
  });
  const assets = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  app.use('/docs/assets', express.static(assets, { index: false, maxAge: '1d' }));
  app.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(DOCS_INIT);
  });
  app.get('/docs', (_req, res) => {
    res.type('html').send(DOCS_PAGE);
  });
}
