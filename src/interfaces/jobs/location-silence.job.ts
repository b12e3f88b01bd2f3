import { NoticeLocationSilence } from '../../application/incidents/notice-location-silence';
import { defineJob } from './job-definition';

export const LOCATION_SILENCE_JOB = 'incidents:location-silence';

/**
 * Every 10 seconds: monitors whose locations fell silent (no live check process serves them) or came
 * back move to unknown and back, once per transition, with an organization event (audit log).
 */
export const locationSilenceJob = defineJob({ noticeLocationSilence: NoticeLocationSilence }, (use, logger) => {
  return {
    name: LOCATION_SILENCE_JOB,
    every: '10 seconds',
    async run() {
      const report = await use.noticeLocationSilence.execute();
      if (report.changed > 0) logger.info({ job: LOCATION_SILENCE_JOB, ...report }, 'monitor liveness changed');
    },
  };
});
