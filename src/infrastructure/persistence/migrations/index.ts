import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000Identity } from './20261122000000-identity';
import { Migration20261122010000Tenancy } from './20261122010000-tenancy';
import { Migration20261122020000AgentAccess } from './20261122020000-agent-access';
import { Migration20261122060000Scheduling } from './20261122060000-scheduling';
import { Migration20261122030000Monitoring } from './20261122030000-monitoring';
import { Migration20261122050000ResultsIncidents } from './20261122050000-results-incidents';
import { Migration20261122070000CheckEngine } from './20261122070000-check-engine';
import { Migration20261122071000LeaseInDueTime } from './20261122071000-lease-in-due-time';
import { Migration20261123090000ScriptedBrowser } from './20261123090000-scripted-browser';
import { Migration20261124090000HeldSchedule } from './20261124090000-held-schedule';
import { Migration20261125090000ScheduleWakeups } from './20261125090000-schedule-wakeups';
import { Migration20261126090000AlertStateNotices } from './20261126090000-alert-state-notices';
import { Migration20261201100000OrganizationWideTags } from './20261201100000-organization-wide-tags';
import { Migration20261201110000CompactWebsiteDocuments } from './20261201110000-compact-website-documents';
import { Migration20261203090000NotificationDeliveries } from './20261203090000-notification-deliveries';
import { Migration20261202090000NotificationChannels } from './20261202090000-notification-channels';
import { Migration20261210090000MaintenanceWindows } from './20261210090000-maintenance-windows';
import { Migration20261213090000DirectDeliveries } from './20261213090000-direct-deliveries';
import { Migration20261220090000StatusPages } from './20261220090000-status-pages';
import { Migration20261220100000StatusPageSubscribers } from './20261220100000-status-page-subscribers';

/** Every migration, in order. Listed explicitly so the same list runs from tsx, tsc output or a bundle. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122000000Identity', class: Migration20261122000000Identity },
  { name: 'Migration20261122010000Tenancy', class: Migration20261122010000Tenancy },
  { name: 'Migration20261122020000AgentAccess', class: Migration20261122020000AgentAccess },
  { name: 'Migration20261122030000Monitoring', class: Migration20261122030000Monitoring },
  { name: 'Migration20261122050000ResultsIncidents', class: Migration20261122050000ResultsIncidents },
  { name: 'Migration20261122060000Scheduling', class: Migration20261122060000Scheduling },
  { name: 'Migration20261122070000CheckEngine', class: Migration20261122070000CheckEngine },
  { name: 'Migration20261122071000LeaseInDueTime', class: Migration20261122071000LeaseInDueTime },
  { name: 'Migration20261123090000ScriptedBrowser', class: Migration20261123090000ScriptedBrowser },
  { name: 'Migration20261124090000HeldSchedule', class: Migration20261124090000HeldSchedule },
  { name: 'Migration20261125090000ScheduleWakeups', class: Migration20261125090000ScheduleWakeups },
  { name: 'Migration20261126090000AlertStateNotices', class: Migration20261126090000AlertStateNotices },
  { name: 'Migration20261201100000OrganizationWideTags', class: Migration20261201100000OrganizationWideTags },
  { name: 'Migration20261201110000CompactWebsiteDocuments', class: Migration20261201110000CompactWebsiteDocuments },
  { name: 'Migration20261202090000NotificationChannels', class: Migration20261202090000NotificationChannels },
  { name: 'Migration20261203090000NotificationDeliveries', class: Migration20261203090000NotificationDeliveries },
  { name: 'Migration20261210090000MaintenanceWindows', class: Migration20261210090000MaintenanceWindows },
  { name: 'Migration20261213090000DirectDeliveries', class: Migration20261213090000DirectDeliveries },
  { name: 'Migration20261220090000StatusPages', class: Migration20261220090000StatusPages },
  { name: 'Migration20261220100000StatusPageSubscribers', class: Migration20261220100000StatusPageSubscribers },
];
