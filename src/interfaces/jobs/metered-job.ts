import { performance } from 'node:perf_hooks';
import type { JobMetrics } from '../../application/observability/ports';
import type { JobDefinition } from './job-definition';

/** The same job, reporting each run's outcome and duration; a failure still fails the run. */
export function meteredJob(job: JobDefinition, metrics: JobMetrics): JobDefinition {
  return {
    ...job,
    async run() {
      const started = performance.now();
      try {
        await job.run();
        metrics.jobRan(job.name, 'succeeded', (performance.now() - started) / 1000);
      } catch (error) {
        metrics.jobRan(job.name, 'failed', (performance.now() - started) / 1000);
        throw error;
      }
    },
  };
}
