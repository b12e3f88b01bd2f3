import { lazy } from '../../components/lazy';
import type { Area } from '../area';

const ServiceLevelsPage = lazy(() => import('./service-levels-page').then((m) => m.ServiceLevelsPage));
const ObjectiveForm = lazy(() => import('./objective-form').then((m) => m.ObjectiveForm));

/** Service level objectives: their attainment, error budget and burn rates; forms to add and change them. */
export const serviceLevelsArea: Area = {
  routes: [
    { pattern: '/service-levels', render: (_, user) => <ServiceLevelsPage user={user} /> },
    { pattern: '/service-levels/new', render: (_, user) => <ObjectiveForm user={user} id={null} /> },
    { pattern: '/service-levels/:id/edit', render: ({ id }, user) => <ObjectiveForm key={id} user={user} id={id!} /> },
  ],
  nav: [{ to: '/service-levels', label: 'Service levels', order: 35 }],
};
