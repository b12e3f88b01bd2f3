import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { RequestDataExport } from '../../../application/data-export/request-data-export';
import { ListDataExports } from '../../../application/data-export/list-data-exports';
import { DownloadDataExport, type ExportDownload } from '../../../application/data-export/download-data-export';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { DataExportSchema, DownloadQuery, ExportIdParams, RequestExportBody } from './schemas';
import { presentExport } from './presenters';

const tags = ['Organization'] as const;

/**
 * The organization's data export (administrators; allowed while the organization is suspended):
 * request, follow the progress, download the zip for seven days.
 */
export const dataExportRouter = defineRouter(
  { requestDataExport: RequestDataExport, listDataExports: ListDataExports, downloadDataExport: DownloadDataExport },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'requestDataExport',
        method: 'post',
        path: '/api/organization/data-export',
        tags,
        summary: "Export the organization's data",
        description:
          'Queues an export of everything the organization holds: a zip of JSON Lines, one file per resource ' +
          '(customers, monitors, domains, IPs, tags, custom fields, incidents, maintenance windows, notification channels, ' +
          'change requests, members, check results, the audit log) and a manifest.json with the row counts. Every secret is ' +
          'left out or redacted (password and code digests, sealed credentials, signing secrets, heartbeat tokens and URLs, ' +
          'header values, credential URLs such as chat incoming webhooks), and the manifest lists per file what and how (leftOut). The progress (rows done of rows total) shows ' +
          'on the export; when it is ready the recipients get a download link by e-mail, valid 7 days. One export at a ' +
          'time (409 exportAlreadyRunning, data.export) and one per cooldown of EXPORT_COOLDOWN_HOURS (6 by default; 429 ' +
          'exportCooldown, data.cooldownHours, data.retryAfter); a failed export does not count. Allowed while the ' +
          'organization is suspended.',
        body: RequestExportBody,
        response: DataExportSchema,
        status: 202,
        errors: ['invalidExportRecipient', 'exportAlreadyRunning', 'exportCooldown', 'roleForbidden', 'customerScopedTokenForbidden'],
        handler: async ({ actor, body }) => presentExport(await use.requestDataExport.execute(actor, body)),
      })
      .route({
        operationId: 'listDataExports',
        method: 'get',
        path: '/api/organization/data-export',
        tags,
        summary: "The organization's recent exports",
        description: 'The last 20, newest first, each with its status and progress.',
        query: PageOnlyQuery,
        response: pagedSchema(DataExportSchema, 'DataExportPage'),
        errors: ['roleForbidden', 'customerScopedTokenForbidden'],
        handler: async ({ actor, query }) => pageOf((await use.listDataExports.execute(actor)).map(presentExport), query),
      })
      .route({
        operationId: 'downloadDataExport',
        method: 'get',
        path: '/api/organization/data-export/download',
        tags,
        summary: "Download an export's archive",
        description:
          'application/zip, for a signed-in caller only (a session cookie, as when the e-mailed link is opened in a ' +
          'browser, or a bearer token): an administrator of the organization, or a member the export was sent to, with the ' +
          "link's `token`. The link alone opens nothing. 400 missingExportId without exportId; 409 exportNotReady " +
          '(data.status) while queued, generating or after it failed; 410 exportExpired once the 7-day window closed (the file ' +
          "is deleted then); a wrong token, another member's link or another organization's export answers 404.",
        query: DownloadQuery,
        status: 200,
        errors: ['missingExportId', 'exportNotReady', 'exportExpired', 'notFound', 'roleForbidden', 'customerScopedTokenForbidden'],
        handler: async ({ query, res, actor, caller }) => {
          const download = use.downloadDataExport;
          const archive: ExportDownload =
            query.token !== undefined
              ? await download.byLink(actor, caller.user.email, query.exportId, query.token)
              : await download.byCaller(actor, query.exportId);
          res.status(200).set({
            'Content-Type': 'application/zip',
            'Content-Length': String(archive.bytes),
            'Content-Disposition': `attachment; filename="${archive.filename}"`,
            'Cache-Control': 'private, no-store',
          });
          await pipeline(createReadStream(archive.path), res);
        },
      })
      .route({
        operationId: 'getDataExport',
        method: 'get',
        path: '/api/organization/data-export/{id}',
        tags,
        summary: 'One export with its progress',
        description: "Another organization's export answers 404.",
        params: ExportIdParams,
        response: DataExportSchema,
        errors: ['missingExportId', 'notFound', 'roleForbidden', 'customerScopedTokenForbidden'],
        handler: async ({ actor, params }) => presentExport(await use.listDataExports.one(actor, params.id)),
      }).router;
  },
);
