import { useState } from 'preact/hooks';
import { api, describe, ok, type CheckResult } from '../../api/client';
import { ms } from '../../components/format';
import { resultsPath } from '../../monitors/monitor-api';
import type { MonitorKind } from '../../monitors/monitor-rows';

const WAIT_MS = 20_000;

/**
 * "Check now": queues a check from every location (the act's one request), then shows the first
 * result checked at or after the trigger's `requestedAt` as it arrives in the check history, and
 * hands it to the page (no event tells of a check's result: its history is read until it is there).
 * A result checked before the click (a regular or confirmation check recorded meanwhile) is not
 * its answer, however new to the page.
 */
export function CheckNow({ kind, id, onResult }: { kind: MonitorKind; id: string; onResult: (result: CheckResult) => void }) {
  const [status, setStatus] = useState<string>('');
  const [result, setResult] = useState<CheckResult | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    setResult(null);
    setStatus('Checking…');
    try {
      const newest = async () => ok(api.GET(resultsPath(kind, 'check-history'), { params: { path: { id }, query: { perPage: 5 } } }));
      const { requestedAt } = await ok(api.POST(resultsPath(kind, 'trigger-check'), { params: { path: { id } } }));
      const asked = Date.parse(requestedAt);
      const deadline = Date.now() + WAIT_MS;
      while (Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 700));
        const page = await newest();
        const fresh = page.items.findLast((item) => Date.parse(item.checkedAt) >= asked);
        if (fresh) {
          setResult(fresh);
          setStatus('');
          onResult(fresh);
          return;
        }
      }
      setStatus('No result yet: the check is still running or no location took it. It will show in the history.');
    } catch (failure) {
      setStatus(describe(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="check-now">
      <button type="button" disabled={busy} onClick={() => void run()}>
        Check now
      </button>
      <p role="status" aria-live="polite" class="check-now-result">
        {result
          ? `Result: ${result.status} from ${result.location}, ${ms(result.responseTimeMs)}${result.message ? ` — ${result.message}` : ''}`
          : status}
      </p>
    </div>
  );
}
