import { isAppError } from '../../domain/shared/app-error';
import { ImIncident } from '../../domain/incident-management/im-incident';
import { effectiveImRoute, monitorIncidentDedupKey } from '../../domain/incident-management/monitor-routing';
import type { Incident } from '../../domain/incidents/incident';
import { organizationScope } from '../../domain/shared/tenant-scope';
import type { IncidentRouting } from '../incidents/ports';
import type { Clock } from '../shared/clock';
import type { IdGenerator } from '../shared/id-generator';
import type { ImIncidentRepository, ImRoutingSettings } from './ports';

type MonitorNamed = { readonly publicId: string; readonly monitorId: number; readonly name: string };

/** A person acting on the IM incident at the moment it resolves costs a re-read, this many times at most. */
const ATTEMPTS = 3;

/**
 * Routes the check engine's automatic incidents into incident management. Runs inside the engine's
 * transaction (under the monitor's alert-state lock), so the IM incident commits exactly when the
 * engine incident does; its dedup key names the engine incident, so a repeated or racing report
 * adds an occurrence to the one IM incident instead of opening a second. The escalation job adopts
 * the new incident like any other (its policy starts paging). On recovery the IM incident resolves,
 * if it is still open, with a timeline entry naming the monitor.
 */
export class RouteMonitorIncident implements IncidentRouting {
  constructor(
    private readonly settings: ImRoutingSettings, private readonly incidents: ImIncidentRepository,
    private readonly ids: IdGenerator, private readonly clock: Clock,
  ) {}

  async opened(incident: Incident, monitor: MonitorNamed): Promise<void> {
    const context = await this.settings.forMonitor(monitor.monitorId);
    if (!context.imEnabled) return;
    const route = effectiveImRoute(context.customer, context.monitor);
    if (!route) return;
    const origin = { monitorId: monitor.publicId, incidentId: incident.publicId };
    const details = { origin: 'monitor', ...origin, monitorName: monitor.name, reasonCode: incident.causeReasonCode, message: incident.causeMessage };
    const candidate = ImIncident.trigger({
      publicId: this.ids.uuid(), organizationId: incident.organizationId, title: incident.title, description: incident.causeMessage,
      severity: 'critical', source: 'monitor', teamId: route.teamId, customerId: incident.customerId,
      escalationPolicyId: route.escalationPolicyId, dedupKey: monitorIncidentDedupKey(monitor.publicId, incident.publicId),
      createdByUserId: null, now: this.clock.now(),
    }, details);
    candidate.monitorOrigin = origin;
    await this.incidents.triggerOrOccur(organizationScope(incident.organizationId), candidate, details);
  }

  /** A person acknowledged the automatic incident: its open, still triggered IM copy is acknowledged by them too. */
  async acknowledged(incident: Incident, userId: string | null): Promise<void> {
    const scope = organizationScope(incident.organizationId);
    for (let attempt = 1; ; attempt++) {
      const routed = await this.incidents.findOpenByOrigin(scope, incident.publicId);
      if (!routed || routed.status !== 'triggered') return;
      routed.acknowledge(userId, incident.acknowledgedAt ?? this.clock.now());
      try {
        await this.incidents.save(scope, routed);
        return;
      } catch (error) {
        if (!(isAppError(error) && error.code === 'imIncidentStatusConflict') || attempt >= ATTEMPTS) throw error;
      }
    }
  }

  async resolved(incident: Incident, monitor: MonitorNamed): Promise<void> {
    const scope = organizationScope(incident.organizationId);
    const dedupKey = monitorIncidentDedupKey(monitor.publicId, incident.publicId);
    for (let attempt = 1; ; attempt++) {
      const routed = await this.incidents.findOpenByDedupKey(scope, dedupKey);
      if (!routed) return;
      routed.resolve(null, this.clock.now(), {
        origin: 'monitor', monitorId: monitor.publicId, incidentId: incident.publicId, reason: 'monitorRecovered',
      });
      try {
        await this.incidents.save(scope, routed);
        return;
      } catch (error) {
        // A stale version changes no row, so the transaction stays usable for the re-read.
        if (!(isAppError(error) && error.code === 'imIncidentStatusConflict') || attempt >= ATTEMPTS) throw error;
      }
    }
  }
}
