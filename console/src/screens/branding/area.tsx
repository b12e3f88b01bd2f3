import { lazy } from '../../components/lazy';
import type { Area } from '../area';
import { allowedTo } from '../../permissions';

const BrandingPage = lazy(() => import('./branding-page').then((m) => m.BrandingPage));

/** White-label: the organization's name, logo and accent colour on its own domains (organization admins). */
export const brandingArea: Area = {
  routes: [{ pattern: '/organization/branding', render: () => <BrandingPage /> }],
  settings: [
    {
      to: '/organization/branding',
      label: 'Branding',
      order: 60,
      description: 'The name, logo and accent colour the console shows on your white-label domains.',
      shownTo: allowedTo('organization.update'),
    },
  ],
};
