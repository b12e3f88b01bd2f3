import { lazy } from '../../components/lazy';
import type { Area } from '../area';

const StatusPageList = lazy(() => import('./status-page-list').then((m) => m.StatusPageList));
const StatusPageEditor = lazy(() => import('./status-page-editor').then((m) => m.StatusPageEditor));
const CustomDomains = lazy(() => import('./custom-domains').then((m) => m.CustomDomains));

/** Status pages (settings, components, preview, incidents, subscribers) and the custom domains that serve them. */
export const statusPagesArea: Area = {
  routes: [
    { pattern: '/status-pages', render: (_, user) => <StatusPageList user={user} /> },
    { pattern: '/status-pages/:id', render: (params, user) => <StatusPageEditor id={params.id!} user={user} /> },
    { pattern: '/custom-domains', render: (_, user) => <CustomDomains user={user} /> },
  ],
  nav: [{ to: '/status-pages', label: 'Status pages', order: 50 }],
  settings: [
    {
      to: '/custom-domains',
      label: 'Custom domains',
      order: 55,
      description: 'Your own hostnames for status pages or the whole console (white-label), proved by a DNS record.',
    },
  ],
};
