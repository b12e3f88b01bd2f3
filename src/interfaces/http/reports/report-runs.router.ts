import type { ZodOpenApiOperationObject } from 'zod-openapi';
import { ListReportRuns } from '../../../application/reports/list-report-runs';
import { GetReportRun } from '../../../application/reports/get-report-run';
import { GetReportPdf } from '../../../application/reports/get-report-pdf';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { IdParams, ReportRunSchema, RunsPage, RunsQuery } from './schemas';
import { presentRun } from './presenters';

const tags = ['Reports'] as const;
const PDF_PATH = '/api/organization/report-runs/{id}/pdf';
const ACCESS = 'Organization-wide callers only (customer-scoped callers answer 403 customerScopedTokenForbidden).';

/** Report runs: what each scheduled or manual run covered and made, and the archived PDFs. */
export const reportRunsRouter = defineRouter(
  { listReportRuns: ListReportRuns, getReportRun: GetReportRun, getReportPdf: GetReportPdf },
  (deps, use) => {
    const router = new ApiRouter(deps)
      .route({
        operationId: 'listReportRuns',
        method: 'get',
        path: '/api/organization/report-runs',
        tags,
        summary: 'List report runs',
        description:
          "Newest first: runs of the organization's definitions and its customers' own monthly reports " +
          `(monthlyReportsEnabled). reportId narrows to one definition (reportNotFound when it is not the organization's). ${ACCESS}`,
        query: RunsQuery,
        response: RunsPage,
        errors: ['reportNotFound'],
        handler: async ({ actor, query }) => {
          const page = await use.listReportRuns.execute(actor, query);
          return { ...page, items: page.items.map(presentRun) };
        },
      })
      .route({
        operationId: 'getReportRun',
        method: 'get',
        path: '/api/organization/report-runs/{id}',
        tags,
        summary: 'Get a report run',
        description: `A missing run, or another organization's, answers reportRunNotFound. ${ACCESS}`,
        params: IdParams,
        response: ReportRunSchema,
        errors: ['reportRunNotFound'],
        handler: async ({ actor, params }) => presentRun(await use.getReportRun.execute(actor, params)),
      })
      .route({
        operationId: 'getReportRunPdf',
        method: 'get',
        path: PDF_PATH,
        tags,
        summary: 'Download the archived PDF of a run',
        description:
          'Answers application/pdf. reportRunNotFound for a missing run; reportRunNoPdf (400, data.status) when the ' +
          'run made no PDF (skipped by its threshold, failed, or still running); reportPdfNotFound when the run recorded a ' +
          `PDF that can no longer be read. ${ACCESS}`,
        params: IdParams,
        status: 200,
        errors: ['reportRunNotFound', 'reportRunNoPdf', 'reportPdfNotFound'],
        handler: async ({ actor, params, res }) => {
          const { run, pdf } = await use.getReportPdf.execute(actor, params);
          res
            .status(200)
            .set({
              'Content-Type': 'application/pdf',
              'Content-Disposition': `attachment; filename="report-${run.publicId}.pdf"`,
              'Cache-Control': 'private, max-age=86400, immutable',
              'X-Content-Type-Options': 'nosniff',
            })
            .end(Buffer.from(pdf));
        },
      });
    const operation = (deps.paths[PDF_PATH] as Record<string, ZodOpenApiOperationObject>).get!;
    operation.responses = {
      ...operation.responses,
      200: { description: 'The PDF', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
    };
    return router.router;
  },
);
