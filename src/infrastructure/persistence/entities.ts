import type { EntitySchema } from '@mikro-orm/core';
import { identitySchemas } from '../identity/identity.schemas';
import { agentAccessSchemas } from '../agent-access/agent-access.schemas';
import { incidentSchemas } from '../incidents/incidents.schemas';
import { tenancySchemas } from '../tenancy/tenancy.schemas';
import { monitoringSchemas } from '../monitoring/monitoring.schemas';
import { notificationSchemas } from '../notifications/notifications.schemas';

/** The ORM mappings of every context. */
export const entitySchemas: EntitySchema[] = [
  ...identitySchemas,
  ...agentAccessSchemas,
  ...incidentSchemas,
  ...tenancySchemas,
  ...monitoringSchemas,
  ...notificationSchemas,
];
