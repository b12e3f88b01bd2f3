import { ago, dateTime } from '../../components/format';
import type { Channel } from './channel-form';

const WORDS = { healthy: 'Healthy', degraded: 'Degraded', failing: 'Failing' } as const;

/** A channel's health as the API tells it: its status, failures in a row, the last failure and success. */
export function Health({ channel, full = false }: { channel: Channel; full?: boolean }) {
  const { health } = channel;
  return (
    <span class="health">
      <span class={`pill health-${health.status}`}>{WORDS[health.status]}</span>
      {health.consecutiveFailures > 0 ? (
        <span>
          {health.consecutiveFailures} failed attempt{health.consecutiveFailures === 1 ? '' : 's'} in a row
        </span>
      ) : null}
      <span class="muted">
        {health.lastSuccessAt ? `last delivered ${ago(health.lastSuccessAt)}` : 'nothing delivered yet'}
        {health.lastFailureAt ? ` · last failure ${ago(health.lastFailureAt)}` : ''}
      </span>
      {full && health.lastFailureReason ? <span class="error-text">Last failure: {health.lastFailureReason}</span> : null}
      {full && health.failingSince ? <span class="muted">Failing since {dateTime(health.failingSince)}</span> : null}
    </span>
  );
}
