/**
 * When a monitor's next check from a location is due. Slots are fixed points on the monitor's
 * interval grid, offset by a stable per-(monitor, location) phase (chosen when the schedule row is
 * planned), so monitors with the same interval spread over it instead of firing in the same second,
 * and a restart resumes the same grid instead of shifting it.
 */

/** The first slot strictly after `after` on the monitor's grid. */
export function nextSlotAfter(after: Date, intervalMs: number, phaseMs: number): Date {
  const t = after.getTime();
  const k = Math.floor((t - phaseMs) / intervalMs) + 1;
  return new Date(k * intervalMs + phaseMs);
}

/**
 * The slot after a completed check: the first grid point after its completion, and never the slot
 * it just filled (a fast check may finish within the millisecond a timer fires early). On-time
 * checks move to the following slot; an off-grid run (trigger-check) snaps back onto the grid;
 * slots missed while the checker was down are skipped rather than run as a burst of stale checks
 * (the gap is recorded as unknown time by the results, never as up).
 */
export const slotAfterCompletion = (
  check: { readonly slot: Date; readonly intervalMs: number; readonly phaseMs: number },
  completedAt: Date,
): Date => nextSlotAfter(new Date(Math.max(completedAt.getTime(), check.slot.getTime())), check.intervalMs, check.phaseMs);

/** How late a check started relative to its slot (never negative). */
export const latenessMs = (slot: Date, startedAt: Date): number => Math.max(0, startedAt.getTime() - slot.getTime());
