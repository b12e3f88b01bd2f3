import { lazy } from '../../components/lazy';
import type { Area } from '../area';
import { Customers } from './customers';

const CustomerPage = lazy(() => import('./customer-page').then((m) => m.CustomerPage));

/** The customers of the caller's scope, and one customer's page (package, quota, fields, domains, IPs, monitors). */
export const customersArea: Area = {
  routes: [
    { pattern: '/customers', render: (_, user) => <Customers user={user} /> },
    { pattern: '/customers/:id', render: ({ id }, user) => <CustomerPage key={id} id={id!} user={user} /> },
  ],
  nav: [{ to: '/customers', label: 'Customers', order: 30 }],
};
