import { defineStreamedIntake } from '../shared/router-deps';
import { ALERT_INGEST_PATH, alertIngestIntake, alertIngestIntakeNeeds } from './alert-sources.router';
import { imEventFastPath, imEventFastPathNeeds } from './im-event-fast-path';
import { IM_EVENTS_PATH, eventsInFlight, imEventIntake, imEventIntakeNeeds } from './im-events.router';
import { streamsItsBody } from './streamed-bodies';

/**
 * Incident management's ingest as the host mounts it: the light route for events sent with a bearer
 * token first (before the parsers, request context, admission and audit), then, after admission and
 * the IM gate, the intakes that read an event's or an alert source's body themselves. Both ways
 * events come in share one in-flight bound, made once per host.
 */
export const imIngest = defineStreamedIntake({
  needs: { ...imEventFastPathNeeds, ...imEventIntakeNeeds, ...alertIngestIntakeNeeds },
  streamsItsBody,
  build: (use, host) => {
    const inFlight = eventsInFlight();
    return {
      front: imEventFastPath(use, host, inFlight),
      posts: [
        { path: IM_EVENTS_PATH, handler: imEventIntake(use, inFlight) },
        { path: ALERT_INGEST_PATH, handler: alertIngestIntake(use) },
      ],
    };
  },
});
