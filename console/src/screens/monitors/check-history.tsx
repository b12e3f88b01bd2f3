import type { CheckResult } from '../../api/client';
import { dateTime, ms } from '../../components/format';

/** A value of a check's evidence, as text whatever its type (a target's answer is never markup). */
const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** What a failed check saw: its reason, message, timings and evidence, each as text. */
function Evidence({ result }: { result: CheckResult }) {
  const timings = result.timings
    ? Object.entries(result.timings)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => `${k.replace(/Ms$/, '')} ${ms(v)}`)
        .join(' · ')
    : '';
  const evidence = Object.entries(result.evidence ?? {});
  return (
    <div class="evidence">
      {result.reasonCode ? (
        <p>
          <span class="label">Reason</span> {result.reasonCode}
        </p>
      ) : null}
      {result.message ? (
        <p>
          <span class="label">Message</span> {result.message}
        </p>
      ) : null}
      {timings ? (
        <p>
          <span class="label">Timings</span> {timings}
        </p>
      ) : null}
      {evidence.length > 0 ? (
        <dl>
          {evidence.map(([key, value]) => (
            <div key={key} class="evidence-item">
              <dt>{key}</dt>
              <dd>{asText(value)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}

/** The stored results, newest first; each failure with its evidence. */
export function CheckHistory({ results }: { results: CheckResult[] }) {
  if (results.length === 0) return <p>No results in the last 24 hours yet.</p>;
  return (
    <ol class="history" aria-label="Check results, newest first">
      {results.map((result) => (
        <li key={`${result.checkedAt}-${result.location}`} class={`result result-${result.status}`}>
          <div class="result-line">
            <span class={`pill pill-${result.status}`}>{result.status}</span>
            <span>{dateTime(result.checkedAt)}</span>
            <span>{result.location}</span>
            <span>{ms(result.responseTimeMs)}</span>
          </div>
          {result.status !== 'up' ? <Evidence result={result} /> : null}
        </li>
      ))}
    </ol>
  );
}
