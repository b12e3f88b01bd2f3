import { lazy } from '../../components/lazy';
import type { MonitorKind } from '../../monitors/monitor-rows';
import type { Area } from '../area';
import { allowedTo } from '../../permissions';
import { MonitorPage } from './monitor-page';
import { Overview } from './overview';

const NewMonitor = lazy(() => import('./new-monitor').then((m) => m.NewMonitor));
const EditMonitor = lazy(() => import('./edit-monitor').then((m) => m.EditMonitor));
const ChangeRequests = lazy(() => import('./change-requests').then((m) => m.ChangeRequests));

/** The overview (the first view), one monitor's page, the forms to add and edit one, change requests. */
export const monitorsArea: Area = {
  routes: [
    { pattern: '/', render: () => <Overview /> },
    { pattern: '/monitors/new', render: (_, user) => <NewMonitor user={user} /> },
    { pattern: '/change-requests', render: (_, user) => <ChangeRequests user={user} /> },
    {
      pattern: '/monitors/:kind/:id',
      render: ({ kind, id }, user) => <MonitorPage key={id} kind={kind as MonitorKind} id={id!} user={user} />,
    },
    {
      pattern: '/monitors/:kind/:id/edit',
      render: ({ kind, id }, user) => <EditMonitor key={id} kind={kind as MonitorKind} id={id!} user={user} />,
    },
  ],
  nav: [
    { to: '/', label: 'Overview', order: 10 },
    { to: '/monitors/new', label: 'Add monitor', order: 90, shownTo: allowedTo('monitor.create') },
  ],
  settings: [
    {
      to: '/change-requests',
      label: 'Change requests',
      order: 30,
      description: 'Changes customers propose to the monitors the organization manages for them: approve or reject them.',
    },
  ],
};
