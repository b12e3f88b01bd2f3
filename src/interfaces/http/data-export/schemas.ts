import { z } from 'zod';
import 'zod-openapi';
import { EXPORT_STATUSES } from '../../../domain/data-export/data-export';

const Timestamp = z.iso.datetime();

export const RequestExportBody = z
  .object({
    recipientEmails: z.array(z.string().trim().min(3).max(254)).max(20).optional().meta({
      description:
        'Members who receive the download link by e-mail (others: 400 invalidExportRecipient, data.unknown); default the requester',
    }),
  })
  .strict()
  .meta({ id: 'DataExportRequest' });

export const ExportIdParams = z.object({ id: z.string().max(100) });

export const DownloadQuery = z.object({
  exportId: z.string().max(100).optional().meta({ description: 'The export (missing: 400 missingExportId)' }),
  token: z
    .string()
    .max(200)
    .optional()
    .meta({ description: "The secret of the e-mailed link; without it an administrator's session or token is needed" }),
});

export const DataExportSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(EXPORT_STATUSES),
    recipientEmails: z.array(z.string()),
    progress: z.object({
      rowsDone: z.number().int(),
      rowsTotal: z.number().int().nullable().meta({ description: 'Known once generation has counted the rows' }),
      percent: z.number().nullable(),
    }),
    attempts: z
      .number()
      .int()
      .meta({ description: 'Generation tries (a worker that stopped mid-way counts one; the third failure fails the export)' }),
    fileBytes: z.number().int().nullable(),
    error: z.string().nullable(),
    createdAt: Timestamp,
    startedAt: Timestamp.nullable(),
    finishedAt: Timestamp.nullable(),
    expiresAt: Timestamp.nullable().meta({ description: 'The download window closes then (7 days after it was ready)' }),
  })
  .meta({ id: 'DataExport' });
