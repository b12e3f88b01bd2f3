import { expect } from 'chai';
import { meteredJob } from '../../../src/interfaces/jobs/metered-job';
import type { JobMetrics, JobOutcome } from '../../../src/application/observability/ports';

class RecordingJobMetrics implements JobMetrics {
  readonly runs: Array<{ job: string; outcome: JobOutcome; seconds: number }> = [];
  jobRan(job: string, outcome: JobOutcome, seconds: number): void {
    this.runs.push({ job, outcome, seconds });
  }
}

describe('meteredJob', () => {
  it('keeps the name and interval and reports a run that succeeds', async () => {
    const metrics = new RecordingJobMetrics();
    let ran = 0;
    const job = meteredJob({ name: 'purge', every: '1 hour', run: async () => void ran++ }, metrics);

    await job.run();

    expect(job).to.include({ name: 'purge', every: '1 hour' });
    expect(ran).to.equal(1);
    expect(metrics.runs.map(({ job: name, outcome }) => ({ name, outcome }))).to.deep.equal([{ name: 'purge', outcome: 'succeeded' }]);
    expect(metrics.runs[0]!.seconds).to.be.at.least(0);
  });

  it('reports a failed run and still fails it (the job system retries and logs it)', async () => {
    const metrics = new RecordingJobMetrics();
    const job = meteredJob(
      {
        name: 'purge',
        run: async () => {
          throw new Error('database down');
        },
      },
      metrics,
    );

    let failure: unknown;
    await job.run().catch((error: unknown) => {
      failure = error;
    });

    expect((failure as Error).message).to.equal('database down');
    expect(metrics.runs.map((run) => run.outcome)).to.deep.equal(['failed']);
  });
});
