import { dateTime } from '../../components/format';
import type { Schemas } from '../../api/client';

type Delivery = Schemas['NotificationDelivery'];

/** A channel's recent deliveries, newest first, each attempt with the receiver's answer as text. */
export function Deliveries({ deliveries, total }: { deliveries: Delivery[]; total: number }) {
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Recent deliveries</h2>
      {deliveries.length === 0 ? <p>Nothing sent through this channel yet.</p> : null}
      <ol class="deliveries" aria-label="Deliveries">
        {deliveries.map((d) => (
          <li key={d.id} class="delivery">
            <p class="delivery-head">
              <strong>{d.event}</strong> <span class={`pill pill-${d.status}`}>{d.status}</span>{' '}
              <time dateTime={d.createdAt}>{dateTime(d.createdAt)}</time>
              {d.nextAttemptAt ? <span class="muted"> · next try {dateTime(d.nextAttemptAt)}</span> : null}
            </p>
            <ul class="attempts">
              {d.attempts.map((a) => (
                <li key={a.attempt}>
                  Try {a.attempt}, {dateTime(a.at)}: <span class={`pill pill-${a.outcome}`}>{a.outcome}</span>{' '}
                  {a.statusCode === null ? 'no answer' : `answered ${a.statusCode}`} in {a.latencyMs} ms
                  {a.error ? <span class="error-text"> — {a.error}</span> : null}
                  {a.responseExcerpt ? <pre class="excerpt-line">{a.responseExcerpt}</pre> : null}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
      {total > deliveries.length ? (
        <p class="muted">
          The newest {deliveries.length} of {total} are shown.
        </p>
      ) : null}
    </section>
  );
}
