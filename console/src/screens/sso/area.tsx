import { lazy } from '../../components/lazy';
import { allowedTo } from '../../permissions';
import type { Area } from '../area';

const SsoSettingsPage = lazy(() => import('./sso-settings').then((m) => m.SsoSettingsPage));

/** Organization admins (not tied to a customer) configure single sign-on. */
const administers = allowedTo('sso.manage');

/** Single sign-on settings: the organization's OpenID Connect provider, domains, roles, SSO only. */
export const ssoArea: Area = {
  routes: [{ pattern: '/organization/sso', render: (_, user) => <SsoSettingsPage user={user} /> }],
  settings: [
    {
      to: '/organization/sso',
      label: 'Single sign-on',
      order: 25,
      shownTo: administers,
      description: 'Sign in through your identity provider (OpenID Connect): allowed e-mail domains, roles from groups, SSO only.',
    },
  ],
};
