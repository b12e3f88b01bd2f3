import { STATE_LABELS, type ConsoleState } from '../monitors/monitor-rows';

/** A monitor's state in words, with a shape beside the colour (so colour is not the only sign). */
export function StateBadge({ state }: { state: ConsoleState }) {
  return (
    <span class={`badge badge-${state}`}>
      <span class="badge-mark" aria-hidden="true" />
      {STATE_LABELS[state]}
    </span>
  );
}
