import { api, ok, type Schemas } from '../../api/client';
import type { ImEntry } from './im-timeline';

type ImIncident = Schemas['ImIncident'];
type Entries = Array<Pick<ImEntry, 'kind' | 'details'>>;

const HOUR = 3_600_000;

/**
 * An act on an IM incident that is one button: the `can` key the API sets when the caller may take
 * it, its label, its one request (answered with the incident after it), and the timeline entries the
 * service records with it (the incident page adds them to the timeline it shows). `inList` says the
 * incidents list offers it too (re-triggering is for the incident's own page).
 */
export interface ImButtonAct {
  can: keyof ImIncident['can'];
  label: string;
  /** The button's name where several incidents are listed: the label and the incident's title. */
  labelFor: (title: string) => string;
  secondary: boolean;
  inList: boolean;
  request: (id: string) => Promise<ImIncident>;
  entries: (answer: ImIncident) => Entries;
}

const params = (id: string) => ({ path: { id } });

/** The button acts, in the order they are shown: the page shows all, the list those `inList`. */
export const IM_BUTTON_ACTS: readonly ImButtonAct[] = [
  {
    can: 'acknowledge',
    label: 'Acknowledge',
    labelFor: (title) => `Acknowledge ${title}`,
    secondary: false,
    inList: true,
    request: (id) => ok(api.POST('/api/im/incidents/{id}/acknowledge', { params: params(id) })),
    entries: () => [{ kind: 'acknowledged', details: {} }],
  },
  {
    can: 'retrigger',
    label: 'Re-trigger',
    labelFor: (title) => `Re-trigger ${title}`,
    secondary: true,
    inList: false,
    request: (id) => ok(api.POST('/api/im/incidents/{id}/status', { params: params(id), body: { status: 'triggered' } })),
    entries: () => [{ kind: 'statusChanged', details: { from: 'acknowledged', to: 'triggered' } }],
  },
  {
    can: 'snooze',
    label: 'Snooze an hour',
    labelFor: (title) => `Snooze an hour: ${title}`,
    secondary: true,
    inList: true,
    request: (id) =>
      ok(
        api.POST('/api/im/incidents/{id}/snooze', {
          params: params(id),
          body: { snoozedUntil: new Date(Date.now() + HOUR).toISOString() },
        }),
      ),
    entries: (answer) => [{ kind: 'snoozed', details: { until: answer.snoozedUntil } }],
  },
  {
    can: 'escalate',
    label: 'Escalate now',
    labelFor: (title) => `Escalate now: ${title}`,
    secondary: true,
    inList: true,
    request: (id) => ok(api.POST('/api/im/incidents/{id}/escalate', { params: params(id) })),
    entries: () => [{ kind: 'escalated', details: {} }],
  },
  {
    can: 'resolve',
    label: 'Resolve',
    labelFor: (title) => `Resolve ${title}`,
    secondary: false,
    inList: true,
    request: (id) => ok(api.POST('/api/im/incidents/{id}/resolve', { params: params(id) })),
    entries: () => [{ kind: 'resolved', details: {} }],
  },
];

/** The button acts `incident.can` offers the caller, among `acts`. */
export function offered(incident: Pick<ImIncident, 'can'>, acts: readonly ImButtonAct[] = IM_BUTTON_ACTS): ImButtonAct[] {
  return acts.filter((act) => incident.can[act.can]);
}
