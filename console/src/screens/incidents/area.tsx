import type { Area } from '../area';
import { IncidentPage } from './incident-page';
import { Incidents } from './incidents';

/** Incidents open and recent, and one incident's story. */
export const incidentsArea: Area = {
  routes: [
    { pattern: '/incidents', render: (_, user) => <Incidents user={user} /> },
    { pattern: '/incidents/:id', render: ({ id }, user) => <IncidentPage key={id} id={id!} user={user} /> },
  ],
  nav: [{ to: '/incidents', label: 'Incidents', order: 20 }],
};
