import type { Logger } from 'pino';
import type { Needs, Provided } from '../../application/shared/token';

/** A job the host runs on its job system: thin, it calls a use case. */
export interface JobDefinition {
  readonly name: string;
  /** Interval for a recurring job (Agenda/human-interval syntax: '1 hour', '5 minutes'). */
  readonly every?: string;
  /**
   * PostgreSQL notice channels whose notices run it at once (coalesced: at most one queued run at a
   * time): its work arrives as rows, so `every` is then only its safety poll. `channel:topic` wakes
   * it only on notices of that channel whose payload is the topic (`job_rows:maintenance`).
   */
  readonly wakeOn?: readonly string[];
  /**
   * When its rows next want a run, read from them (null: nothing until a notice). A process with jobs
   * runs it once at start, then sleeps until that time (read again after every run, woken run or
   * notice), so `every` is only its safety poll.
   */
  nextDueAt?(): Promise<Date | null>;
  run(): Promise<void>;
}

/** A job as its context declares it: the use cases and ports it needs, and how it is built from them. */
export interface JobFactory {
  readonly needs: Needs;
  build(use: Provided<Needs>, logger: Logger): JobDefinition;
}

/** Declares a job: `build` sees exactly the `needs` it names, typed; the host resolves them. */
export const defineJob = <N extends Needs>(needs: N, build: (use: Provided<N>, logger: Logger) => JobDefinition): JobFactory => ({
  needs,
  build: build as JobFactory['build'],
});
