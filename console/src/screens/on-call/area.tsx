import type { Area } from '../area';
import { lazy } from '../../components/lazy';
import { imStateOf } from './im-state';

const OnCallPage = lazy(() => import('./on-call-page').then((m) => m.OnCallPage));
const ImIncidentScreen = lazy(() => import('./im-incident-page').then((m) => m.ImIncidentScreen));

/** Incident management: who is on call, schedules, escalation policies, alert sources, teams, its incidents (and one of them). */
export const onCallArea: Area = {
  routes: [
    { pattern: '/on-call', render: (_, user) => <OnCallPage section="now" user={user} /> },
    { pattern: '/on-call/:section', render: ({ section }, user) => <OnCallPage section={section!} user={user} /> },
    { pattern: '/on-call/incidents/:id', render: ({ id }, user) => <ImIncidentScreen key={id} id={id!} user={user} /> },
  ],
  nav: [{ to: '/on-call', label: 'On-call', order: 30, shownTo: (user) => imStateOf(user) === 'on' }],
};
