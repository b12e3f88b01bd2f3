import { MaintainResultStorage } from '../../application/results/maintain-result-storage';
import { defineJob } from './job-definition';

export const RESULT_STORAGE_JOB = 'results:maintain-storage';

/** Hourly (and at start): partitions ahead, hourly rollups, retention of results and rollups. */
export const resultStorageJob = defineJob({ maintainResultStorage: MaintainResultStorage }, (use, logger) => {
  return {
    name: RESULT_STORAGE_JOB,
    every: '1 hour',
    async run() {
      const report = await use.maintainResultStorage.execute();
      logger.info({ job: RESULT_STORAGE_JOB, ...report }, 'result storage maintained');
    },
  };
});
