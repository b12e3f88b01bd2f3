import { ImIncident, type ImIncidentStatus } from '../../../src/domain/incident-management/im-incident';

let n = 0;

/** An IM incident of no team, triggered at `now`, then put in `status` (the domain's tests move it from there). */
export function anImIncident(status: ImIncidentStatus = 'triggered', now = new Date('2026-11-23T10:00:00Z')): ImIncident {
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
    now,
  });
  incident.status = status;
  return incident;
}
