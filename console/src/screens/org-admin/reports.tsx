import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../../api/client';
import { ErrorText } from '../../components/field';
import { dateTime, percent } from '../../components/format';
import type { User } from '../../session';
import { may } from '../../permissions';
import { Pager } from './pager';
import { ReportForm } from './report-form';
import { ReportLogo } from './report-logo';
import { useAction } from '../../components/use-action';
import { useLoad } from './use-load';
import './org-admin.css';

type Report = Schemas['Report'];
type Run = Schemas['ReportRun'];
const RUNS_PER_PAGE = 20;
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function schedule(report: Report): string {
  const day = report.frequency === 'weekly' ? `every ${WEEKDAYS[(report.weekday ?? 1) - 1]}` : `on day ${report.dayOfMonth} of every month`;
  return `${day} at ${report.timeOfDay} (${report.timezone})`;
}

function scopeOf(report: Report): string {
  const { customers, monitors, tags } = report.scope;
  if (customers.length + monitors.length + tags.length === 0) return 'every monitor';
  const parts = [
    customers.length ? `${customers.length} customer(s)` : '',
    monitors.length ? `${monitors.length} monitor(s)` : '',
    tags.length ? `${tags.length} tag(s)` : '',
  ];
  return parts.filter(Boolean).join(', ');
}

function ReportItem({ report, canWrite, onChanged }: { report: Report; canWrite: boolean; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [lastRun, setLastRun] = useState<Run | null>(null);
  const { busy, error, act } = useAction();
  if (editing) return <ReportForm report={report} onSaved={() => (setEditing(false), onChanged())} onCancel={() => setEditing(false)} />;
  return (
    <li class="panel">
      <h3>{report.name}</h3>
      <p>
        {report.frequency === 'weekly' ? 'Weekly' : 'Monthly'}, {schedule(report)}, covering {scopeOf(report)};{' '}
        {report.mode === 'threshold' ? `sent only when a monitor's uptime fell below ${percent(report.threshold)}` : 'sent every run'}; SLA
        target {percent(report.slaTarget)}.
      </p>
      <p class="muted">
        {report.recipients.length ? `To ${report.recipients.join(', ')}` : 'No recipients: archived only'} ·{' '}
        {report.enabled ? `next run ${dateTime(report.nextRunAt)}` : 'disabled'}
      </p>
      {canWrite ? (
        <div class="org-actions">
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              act(async () => {
                setLastRun(await ok(api.POST('/api/organization/reports/{id}/run', { params: { path: { id: report.id } } })));
                onChanged();
              })
            }
          >
            Run now
          </button>
          <button type="button" class="secondary" onClick={() => setEditing(true)}>
            Edit
          </button>
          <button
            type="button"
            class="org-danger"
            disabled={busy}
            onClick={() =>
              act(
                async () => (await ok(api.DELETE('/api/organization/reports/{id}', { params: { path: { id: report.id } } })), onChanged()),
              )
            }
          >
            Delete report
          </button>
        </div>
      ) : null}
      {busy ? <p role="status">Working…</p> : null}
      {lastRun ? (
        <p role="status">
          Run {lastRun.status}
          {lastRun.error ? `: ${lastRun.error}` : ''}.
        </p>
      ) : null}
      <ErrorText message={error} />
    </li>
  );
}

function RunItem({ run, names }: { run: Run; names: Map<string, string> }) {
  const name = run.reportId ? (names.get(run.reportId) ?? 'A deleted report') : "A customer's monthly report";
  const s = run.summary;
  return (
    <li class="run-item">
      <p>
        <strong>{name}</strong> · {run.status} · {run.trigger === 'manual' ? 'run by hand' : 'scheduled'}
      </p>
      <p class="muted">
        {dateTime(run.periodFrom)} to {dateTime(run.periodTo)}
        {s
          ? ` · ${s.monitors} monitors, uptime ${percent(s.uptimeOfKnownPercent)}, ${s.incidents} incidents, ${s.slaMissed} below SLA`
          : ''}
      </p>
      {run.error ? <p class="error">{run.error}</p> : null}
      {run.hasPdf ? (
        <a href={`/api/organization/report-runs/${encodeURIComponent(run.id)}/pdf`} download={`report-${run.id}.pdf`}>
          Download PDF
          <span class="visually-hidden">
            {' '}
            of {name}, {dateTime(run.startedAt)}
          </span>
        </a>
      ) : (
        <span class="muted">No PDF</span>
      )}
    </li>
  );
}

/** Report definitions (list, add, edit, run now, delete), their runs with the PDFs, and the report logo. */
export function Reports({ user }: { user: User }) {
  const canWrite = may(user, 'report.update');
  const [page, setPage] = useState(1);
  const reports = useLoad(() => ok(api.GET('/api/organization/reports', { params: { query: { perPage: 200 } } })));
  const runs = useLoad(() => ok(api.GET('/api/organization/report-runs', { params: { query: { page, perPage: RUNS_PER_PAGE } } })), [page]);
  const changed = () => void Promise.all([reports.reload(), runs.reload()]);
  const names = new Map((reports.data?.items ?? []).map((r) => [r.id, r.name]));
  return (
    <section aria-labelledby="reports-title">
      <h1 id="reports-title">Reports</h1>
      <ErrorText message={reports.error} />
      {reports.data === null && !reports.error ? <p role="status">Loading reports…</p> : null}
      {reports.data?.total === 0 ? <p>No reports yet.</p> : null}
      <ul class="plain-list" aria-label="Report definitions">
        {reports.data?.items.map((report) => (
          <ReportItem key={report.id} report={report} canWrite={canWrite} onChanged={changed} />
        ))}
      </ul>
      {may(user, 'report.create') ? <ReportForm report={null} onSaved={changed} /> : null}
      <h2>Runs</h2>
      <ErrorText message={runs.error} />
      {runs.data?.total === 0 ? <p>No runs yet.</p> : null}
      <ul class="plain-list" aria-label="Report runs">
        {runs.data?.items.map((run) => (
          <RunItem key={run.id} run={run} names={names} />
        ))}
      </ul>
      {runs.data ? <Pager page={page} perPage={RUNS_PER_PAGE} total={runs.data.total} onPage={setPage} what="runs" /> : null}
      {canWrite ? <ReportLogo /> : null}
    </section>
  );
}
