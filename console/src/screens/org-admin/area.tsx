import { lazy } from '../../components/lazy';
import type { User } from '../../session';
import type { Area } from '../area';
import { allowedTo } from '../../permissions';

const AuditLog = lazy(() => import('./audit-log').then((m) => m.AuditLog));
const Reports = lazy(() => import('./reports').then((m) => m.Reports));
const DataExport = lazy(() => import('./data-export').then((m) => m.DataExport));
const Billing = lazy(() => import('./billing').then((m) => m.Billing));
const Smtp = lazy(() => import('./smtp').then((m) => m.Smtp));
const Locations = lazy(() => import('./locations').then((m) => m.Locations));

/** Anyone not bound to one customer. */
const orgWide = (user: User): boolean => user.customerId === null;

/**
 * The organization's administration: audit log, reports, data export, billing, SMTP, locations and
 * probes. Each is a place on the Organization page, shown to the roles the API answers.
 */
export const orgAdminArea: Area = {
  routes: [
    { pattern: '/organization/audit-log', render: () => <AuditLog /> },
    { pattern: '/organization/reports', render: (_, user) => <Reports user={user} /> },
    { pattern: '/organization/export', render: () => <DataExport /> },
    { pattern: '/organization/billing', render: () => <Billing /> },
    { pattern: '/organization/smtp', render: () => <Smtp /> },
    { pattern: '/organization/locations', render: (_, user) => <Locations user={user} /> },
  ],
  settings: [
    {
      to: '/organization/audit-log',
      label: 'Audit log',
      order: 40,
      description: 'Who changed what, when and from where, with filters.',
      shownTo: allowedTo('auditLog.read'),
    },
    {
      to: '/organization/reports',
      label: 'Reports',
      order: 50,
      description: 'PDF reports of uptime and incidents: their schedules, runs and downloads.',
      shownTo: orgWide,
    },
    {
      to: '/organization/export',
      label: 'Data export',
      order: 60,
      description: 'Everything the organization holds, as a zip to download.',
      shownTo: allowedTo('dataExport.request'),
    },
    {
      to: '/organization/billing',
      label: 'Billing',
      order: 70,
      description: 'Payment mandate, discount, quota tiers and the charges recorded.',
      shownTo: allowedTo('billing.manage'),
    },
    {
      to: '/organization/smtp',
      label: 'SMTP',
      order: 80,
      description: "The organization's own mail server for its e-mail notifications.",
      shownTo: allowedTo('smtp.manage'),
    },
    {
      to: '/organization/locations',
      label: 'Locations and probes',
      order: 90,
      description: 'Where checks run from, whether each is live, private locations and their probe keys.',
    },
  ],
};
