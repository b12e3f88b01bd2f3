import { ImIncident, type ImIncidentProps, type ImIncidentStatus } from '../../../src/domain/incident-management/im-incident';

let n = 0;

/**
 * An IM incident of organization 1 and no team, "Disk full" from db-1, triggered at `now` with a
 * unique public id and key unless `overrides` say otherwise, then put in `status` (the domain's tests
 * move it from there).
 */
export function anImIncident(
  status: ImIncidentStatus = 'triggered',
  now = new Date('2026-11-23T10:00:00Z'),
  overrides: Partial<Omit<ImIncidentProps, 'now'>> = {},
): ImIncident {
  const incident = ImIncident.trigger({
    publicId: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    organizationId: 1,
    title: 'Disk full',
    description: null,
    severity: 'critical',
    source: 'db-1',
    teamId: null,
    customerId: null,
    escalationPolicyId: null,
    dedupKey: `k${n}`,
    createdByUserId: null,
    ...overrides,
    now,
  });
  incident.status = status;
  return incident;
}
