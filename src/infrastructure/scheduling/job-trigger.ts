import type { JobRunner } from './agenda-job-runner';

/**
 * Runs a job now on this process's job runner, once one is started (a process without jobs, such as
 * an API-only one, leaves the work to the job's next turn on a worker). Never fails its caller: a
 * job that cannot be queued now still runs at its next turn.
 */
export class JobTrigger {
  private runner: JobRunner | undefined;

  attach(runner: JobRunner): void {
    this.runner = runner;
  }

  detach(): void {
    this.runner = undefined;
  }

  async runNow(name: string): Promise<void> {
    try {
      await this.runner?.runNow(name);
    } catch {
      // The recurring turn picks the work up.
    }
  }
}
