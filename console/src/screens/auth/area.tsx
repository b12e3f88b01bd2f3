import { lazy } from '../../components/lazy';
import type { Area } from '../area';

const AccountPage = lazy(() => import('./account-page').then((m) => m.AccountPage));
const AgentClaimPage = lazy(() => import('./agent-claim-page').then((m) => m.AgentClaimPage));

/**
 * Sign-in and sign-up are drawn by the app itself (they need its session refresh); this area holds
 * the public screen reached by a link (an agent's claim) and the signed-in one about the account.
 */
export const authArea: Area = {
  routes: [
    { pattern: '/account', render: (_, user) => <AccountPage user={user} /> },
    { pattern: '/agent/claim', public: true, render: (_, user) => <AgentClaimPage user={user} /> },
  ],
  settings: [
    {
      to: '/account',
      label: 'Your account',
      order: 5,
      description: 'Two-step verification: turn it on with an authenticator app, or off.',
    },
  ],
};
