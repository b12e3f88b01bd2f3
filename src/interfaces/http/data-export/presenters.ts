import type { DataExport } from '../../../domain/data-export/data-export';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

export const presentExport = (e: DataExport) => ({
  id: e.id,
  status: e.status,
  recipientEmails: [...e.recipientEmails],
  progress: {
    rowsDone: e.rowsDone,
    rowsTotal: e.rowsTotal,
    percent: e.rowsTotal === null ? null : e.rowsTotal === 0 ? 100 : Math.min(100, Math.round((e.rowsDone / e.rowsTotal) * 1000) / 10),
  },
  attempts: e.attempts,
  fileBytes: e.fileBytes,
  error: e.error,
  createdAt: e.createdAt.toISOString(),
  startedAt: iso(e.startedAt),
  finishedAt: iso(e.finishedAt),
  expiresAt: iso(e.expiresAt),
});
