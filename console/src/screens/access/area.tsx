import { lazy } from '../../components/lazy';
import type { Area } from '../area';

const UsersPage = lazy(() => import('./users-page').then((m) => m.UsersPage));
const TokensPage = lazy(() => import('./tokens-page').then((m) => m.TokensPage));
const InvitationPage = lazy(() => import('./invitation-page').then((m) => m.InvitationPage));
const AgentsPage = lazy(() => import('./agents-page').then((m) => m.AgentsPage));

/** The people and agents of an organization: users and roles, API tokens, connected agents. */
export const accessArea: Area = {
  routes: [
    { pattern: '/organization/users', render: (_, user) => <UsersPage user={user} /> },
    { pattern: '/organization/tokens', render: (_, user) => <TokensPage user={user} /> },
    { pattern: '/organization/agents', render: () => <AgentsPage /> },
    { pattern: '/invitations/:token', public: true, render: (params) => <InvitationPage token={params.token ?? ''} /> },
  ],
  settings: [
    {
      to: '/organization/users',
      label: 'Users and roles',
      order: 10,
      description: 'Who may sign in, with which role, and whether they are tied to one customer.',
      // The API lists users to organization-wide users only.
      shownTo: (user) => user.customerId === null,
    },
    { to: '/organization/tokens', label: 'API tokens', order: 20, description: 'Tokens for scripts and integrations; revoke them here.' },
    {
      to: '/organization/agents',
      label: 'Connected agents',
      order: 30,
      description: 'Agents and apps you approved; approve a new one, or disconnect.',
    },
  ],
};
