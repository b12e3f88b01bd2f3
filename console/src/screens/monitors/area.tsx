import type { MonitorKind } from '../../monitors/monitor-rows';
import { edits, type Area } from '../area';
import { MonitorPage } from './monitor-page';
import { NewMonitor } from './new-monitor';
import { Overview } from './overview';

/** The overview (the first view), one monitor's page and the form to add one. */
export const monitorsArea: Area = {
  routes: [
    { pattern: '/', render: () => <Overview /> },
    { pattern: '/monitors/new', render: () => <NewMonitor /> },
    {
      pattern: '/monitors/:kind/:id',
      render: ({ kind, id }, user) => <MonitorPage key={id} kind={kind as MonitorKind} id={id!} user={user} />,
    },
  ],
  nav: [
    { to: '/', label: 'Overview', order: 10 },
    { to: '/monitors/new', label: 'Add monitor', order: 90, shownTo: edits },
  ],
};
