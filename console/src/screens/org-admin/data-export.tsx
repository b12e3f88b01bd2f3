import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, ok, type Schemas } from '../../api/client';
import { ErrorText, Field } from '../../components/field';
import { dateTime } from '../../components/format';
import { useSubmission } from '../../components/use-submission';
import { bytes, useLoad } from './use-load';
import './org-admin.css';

type Export = Schemas['DataExport'];
const POLL_MS = 2_000;

const STATE: Record<Export['status'], string> = {
  queued: 'Queued: waiting for the export worker',
  generating: 'Being written',
  ready: 'Ready to download',
  failed: 'Failed',
  expired: 'Expired: the file is deleted',
};

function progress(item: Export): string {
  const { rowsDone, rowsTotal, percent } = item.progress;
  if (rowsTotal === null) return `${rowsDone} rows written`;
  return `${rowsDone} of ${rowsTotal} rows${percent === null ? '' : ` (${Math.floor(percent)} %)`}`;
}

function ExportItem({ item }: { item: Export }) {
  const running = item.status === 'queued' || item.status === 'generating';
  return (
    <li class="panel">
      <p>
        <strong>{STATE[item.status] ?? item.status}</strong> · requested {dateTime(item.createdAt)}
      </p>
      {running ? (
        <>
          <progress
            value={item.progress.rowsDone}
            max={item.progress.rowsTotal ?? undefined}
            aria-label={`Progress of the export requested ${dateTime(item.createdAt)}`}
          />
          <p class="muted">{progress(item)}</p>
        </>
      ) : null}
      <p class="muted">
        For {item.recipientEmails.join(', ') || 'the requester'}
        {item.finishedAt ? ` · finished ${dateTime(item.finishedAt)}` : ''}
        {item.fileBytes !== null ? ` · ${bytes(item.fileBytes)}` : ''}
        {item.expiresAt ? ` · downloadable until ${dateTime(item.expiresAt)}` : ''}
      </p>
      {item.error ? <p class="error">{item.error}</p> : null}
      {item.status === 'ready' ? (
        <a href={`/api/organization/data-export/download?exportId=${encodeURIComponent(item.id)}`} download>
          Download the export (zip)
        </a>
      ) : null}
    </li>
  );
}

/**
 * The organization's data export: request one (the link is also e-mailed to the recipients),
 * follow its progress (read again every 2 s while one runs), download the zip when it is ready.
 */
export function DataExport() {
  const { data, error, reload } = useLoad(() => ok(api.GET('/api/organization/data-export', { params: { query: { perPage: 20 } } })));
  const [recipients, setRecipients] = useState('');
  const running = data?.items.some((item) => item.status === 'queued' || item.status === 'generating') ?? false;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void reload(), POLL_MS);
    return () => clearInterval(timer);
  }, [running, reload]);
  const { busy, submit, fieldError, message } = useSubmission(async () => {
    const list = recipients
      .split(/[\s,;]+/)
      .map((r) => r.trim())
      .filter(Boolean);
    try {
      await ok(api.POST('/api/organization/data-export', { body: list.length ? { recipientEmails: list } : {} }));
    } catch (failure) {
      // Addresses that are not members are told at the recipients field.
      if (failure instanceof ApiError && failure.code === 'invalidExportRecipient') {
        throw new ApiError(failure.status, failure.code, failure.message, [{ path: ['recipientEmails'], message: failure.message }]);
      }
      throw failure;
    }
    setRecipients('');
    await reload();
  });
  return (
    <section aria-labelledby="export-title">
      <h1 id="export-title">Data export</h1>
      <p>
        A zip of everything the organization holds (customers, monitors, incidents, channels, members, check results, the audit log), one
        JSON Lines file per kind, secrets left out. One export at a time; the download stays open for seven days.
      </p>
      <form class="panel" onSubmit={submit} noValidate aria-labelledby="export-request-title">
        <h2 id="export-request-title">Request an export</h2>
        <Field
          label="Also send the link to (members' e-mail addresses, optional)"
          id="export-recipients"
          error={fieldError('recipientEmails')}
        >
          <input id="export-recipients" value={recipients} onInput={(e) => setRecipients(e.currentTarget.value)} />
        </Field>
        <ErrorText message={message} />
        <button type="submit" disabled={busy || running}>
          Request export
        </button>
        {running ? <p class="muted">An export is running; a new one can be requested once it is done.</p> : null}
      </form>
      <h2>Recent exports</h2>
      <ErrorText message={error} />
      {data === null && !error ? <p role="status">Loading exports…</p> : null}
      {data?.total === 0 ? <p>No exports yet.</p> : null}
      <ul class="plain-list" aria-label="Exports" aria-live="polite">
        {data?.items.map((item) => (
          <ExportItem key={item.id} item={item} />
        ))}
      </ul>
    </section>
  );
}
