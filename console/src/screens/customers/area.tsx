import type { Area } from '../area';
import { Customers } from './customers';

/** The customers of the caller's scope. */
export const customersArea: Area = {
  routes: [{ pattern: '/customers', render: (_, user) => <Customers user={user} /> }],
  nav: [{ to: '/customers', label: 'Customers', order: 30 }],
};
