import type { Area } from '../area';
import { lazy } from '../../components/lazy';
import { imStateOf } from './im-state';

const OnCallPage = lazy(() => import('./on-call-page').then((m) => m.OnCallPage));

/** Incident management: who is on call, schedules, escalation policies, alert sources, teams, its incidents. */
export const onCallArea: Area = {
  routes: [
    { pattern: '/on-call', render: (_, user) => <OnCallPage section="now" user={user} /> },
    { pattern: '/on-call/:section', render: ({ section }, user) => <OnCallPage section={section!} user={user} /> },
  ],
  nav: [{ to: '/on-call', label: 'On-call', order: 30, shownTo: (user) => imStateOf(user) === 'on' }],
};
