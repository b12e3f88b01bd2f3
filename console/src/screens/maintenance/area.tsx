import { lazy } from '../../components/lazy';
import type { Area } from '../area';

const MaintenancePage = lazy(() => import('./maintenance-page').then((m) => m.MaintenancePage));

/** Maintenance windows and their next occurrences: a place on the Organization page. */
export const maintenanceArea: Area = {
  routes: [{ pattern: '/maintenance', render: (_, user) => <MaintenancePage user={user} /> }],
  settings: [
    {
      to: '/maintenance',
      label: 'Maintenance windows',
      order: 25,
      description: 'Planned work, once or repeating in a time zone, that holds back alerts of the monitors it covers.',
    },
  ],
};
