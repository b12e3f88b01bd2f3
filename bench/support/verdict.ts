import os from 'node:os';

/** One goal of a bench: the figure measured, the limit it is held to, and whether it is met. */
export interface Goal {
  readonly figure: number | null;
  /** `<=`: the figure may be at most the limit; `>=`: at least; `==`: exactly. */
  readonly op: '<=' | '>=' | '==';
  readonly limit: number;
  /** What the figure counts, for a reader of the JSON (µs per result, GB, ...). */
  readonly unit: string;
  readonly met: boolean;
}

/** A goal judged: a figure that could not be measured (null, NaN) never meets it. */
export function goal(figure: number | null, op: Goal['op'], limit: number, unit: string): Goal {
  const measured = figure !== null && Number.isFinite(figure);
  const met = measured && (op === '<=' ? figure <= limit : op === '>=' ? figure >= limit : figure === limit);
  return { figure: measured ? figure : null, op, limit, unit, met };
}

/** The machine's load averages (1, 5 and 15 minutes), rounded: a run on a loaded machine says so. */
export const loadAverage = () => os.loadavg().map((load) => Number(load.toFixed(2)));

/**
 * Prints a bench's figures as JSON with its verdict: `goals` (each goal's figure, limit and `met`),
 * `met` (all of them), and the load average before the run and now; a missed goal sets a non-zero
 * exit code (the figures still print, and the run still ends normally).
 */
export function printVerdict(figures: Record<string, unknown>, goals: Record<string, Goal>, loadBefore: number[]): void {
  const missed = Object.entries(goals).filter(([, g]) => !g.met);
  const met = missed.length === 0;
  console.log(
    JSON.stringify({ ...figures, goals, met, load: { before: loadBefore, after: loadAverage(), cores: os.cpus().length } }, null, 2),
  );
  if (!met) {
    for (const [name, g] of missed)
      process.stderr.write(`goal missed: ${name}: ${g.figure ?? 'not measured'} ${g.unit} (goal ${g.op} ${g.limit})\n`);
    process.exitCode = 1;
  }
}
