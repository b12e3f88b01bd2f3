import { z } from 'zod';
import { CreateReport } from '../../../application/reports/create-report';
import { ListReports } from '../../../application/reports/list-reports';
import { GetReport } from '../../../application/reports/get-report';
import { UpdateReport } from '../../../application/reports/update-report';
import { DeleteReport } from '../../../application/reports/delete-report';
import { RunReportNow } from '../../../application/reports/run-report-now';
import { SetReportLogo } from '../../../application/reports/set-report-logo';
import { ApiRouter } from '../shared/api-router';
import { defineRouter } from '../shared/router-deps';
import { CreateReportBody, IdParams, LogoBody, ReportRunSchema, ReportSchema, UpdateReportBody } from './schemas';
import { presentReport, presentRun } from './presenters';
import { PageOnlyQuery, pageOf, pagedSchema } from '../shared/paging';

const tags = ['Reports'] as const;
const ACCESS =
  'Organization-wide callers only (customer-scoped callers answer 403 customerScopedTokenForbidden); ' +
  'editors and admins write, every role reads.';

/** Report definitions: what an organization's PDF reports cover, when they go out and to whom. */
export const reportsRouter = defineRouter(
  {
    listReports: ListReports,
    createReport: CreateReport,
    getReport: GetReport,
    updateReport: UpdateReport,
    deleteReport: DeleteReport,
    runReportNow: RunReportNow,
    setReportLogo: SetReportLogo,
  },
  (deps, use) => {
    return new ApiRouter(deps)
      .route({
        operationId: 'listReports',
        method: 'get',
        path: '/api/organization/reports',
        tags,
        summary: 'List report definitions',
        description: `Oldest first. ${ACCESS}`,
        query: PageOnlyQuery,
        response: pagedSchema(ReportSchema, 'ReportPage'),
        handler: async ({ actor, query }) => pageOf((await use.listReports.execute(actor)).map(presentReport), query),
      })
      .route({
        operationId: 'createReport',
        method: 'post',
        path: '/api/organization/reports',
        tags,
        status: 201,
        summary: 'Define a report',
        description:
          'A PDF report of uptime, downtime with incidents and their causes, response-time percentiles and SLA per ' +
          'monitor, sent by e-mail to the recipients and archived (see /api/organization/report-runs). weekly: every week on ' +
          'weekday (1 = Monday ... 7 = Sunday) at timeOfDay in timezone, covering the seven days before; monthly: every month on ' +
          'dayOfMonth (1-28) at timeOfDay, covering the calendar month before. A weekly report without weekday or a monthly one ' +
          "without dayOfMonth (or with the other frequency's field) answers invalidReportSchedule. The threshold mode sends only " +
          "when some monitor's uptime of observed time fell below threshold (invalidReportScope without one); scope ids that " +
          `are not the organization's answer invalidReportScope with data.unknown. ${ACCESS}`,
        body: CreateReportBody,
        response: ReportSchema,
        errors: ['invalidReportSchedule', 'invalidReportScope', 'roleForbidden'],
        handler: async ({ actor, body }) => presentReport(await use.createReport.execute(actor, body)),
      })
      .route({
        operationId: 'getReport',
        method: 'get',
        path: '/api/organization/reports/{id}',
        tags,
        summary: 'Get a report definition',
        description: `Another organization's report answers reportNotFound, as a missing one. ${ACCESS}`,
        params: IdParams,
        response: ReportSchema,
        errors: ['reportNotFound'],
        handler: async ({ actor, params }) => presentReport(await use.getReport.execute(actor, params)),
      })
      .route({
        operationId: 'updateReport',
        method: 'patch',
        path: '/api/organization/reports/{id}',
        tags,
        summary: 'Change a report definition',
        description:
          'Any of the create fields; the result must hold together as a create would. Switching frequency drops the ' +
          `other frequency's field, so it must come with weekday or dayOfMonth. ${ACCESS}`,
        params: IdParams,
        body: UpdateReportBody,
        response: ReportSchema,
        errors: ['reportNotFound', 'invalidReportSchedule', 'invalidReportScope', 'conflict', 'roleForbidden'],
        handler: async ({ actor, params, body }) => presentReport(await use.updateReport.execute(actor, { id: params.id, change: body })),
      })
      .route({
        operationId: 'deleteReport',
        method: 'delete',
        path: '/api/organization/reports/{id}',
        tags,
        summary: 'Delete a report definition',
        description: `Its runs and their PDFs stay in /api/organization/report-runs. ${ACCESS}`,
        params: IdParams,
        response: z.object({ success: z.literal(true), id: z.uuid() }),
        errors: ['reportNotFound', 'roleForbidden'],
        handler: async ({ actor, params }) => ({
          success: true as const,
          id: (await use.deleteReport.execute(actor, params)).publicId,
        }),
      })
      .route({
        operationId: 'runReportNow',
        method: 'post',
        path: '/api/organization/reports/{id}/run',
        tags,
        summary: 'Run a report now',
        description:
          'Makes a run of the period the latest scheduled slot covers, as a scheduled run would (threshold mode ' +
          'included), archives its PDF and e-mails it to the recipients; answers the finished run. It takes no slot: the ' +
          `scheduled run still happens. ${ACCESS}`,
        params: IdParams,
        status: 201,
        response: ReportRunSchema,
        errors: ['reportNotFound', 'roleForbidden'],
        handler: async ({ actor, params }) => presentRun(await use.runReportNow.execute(actor, params)),
      })
      .route({
        operationId: 'setReportLogo',
        method: 'put',
        path: '/api/organization/report-logo',
        tags,
        summary: "Set the logo of the organization's reports",
        description:
          'The logo on the first page of every report of the organization, beside its name: a PNG or JPEG image ' +
          `(told by its bytes) of at most 512 KB, base64-encoded; null removes it. ${ACCESS}`,
        body: LogoBody,
        errors: ['roleForbidden'],
        handler: async ({ actor, body }) => {
          await use.setReportLogo.execute(actor, { image: body.image === null ? null : new Uint8Array(Buffer.from(body.image, 'base64')) });
        },
      }).router;
  },
);
