import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { MaintainResultStorage } from '../../application/results/maintain-result-storage';
import type { JobDefinition } from './job-definition';

export const RESULT_STORAGE_JOB = 'results:maintain-storage';

/** Hourly (and at start): partitions ahead, hourly rollups, retention of results and rollups. */
export function resultStorageJob(container: Container, logger: Logger): JobDefinition {
  return {
    name: RESULT_STORAGE_JOB,
    every: '1 hour',
    async run() {
      const report = await container.get(MaintainResultStorage).execute();
      logger.info({ job: RESULT_STORAGE_JOB, ...report }, 'result storage maintained');
    },
  };
}
